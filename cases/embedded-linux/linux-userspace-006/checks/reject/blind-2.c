/* defect: rollback only covers fully configured sections: the line whose direction write failed stays exported (never unexported).
 * breaks: "a line that was exported but whose direction was not written is only unexported."
 * must_fail: scenario_configure_fails_rollback
 */
/*
 * gpiocfg: irrigation controller GPIO daemon (sysfs-style interface under
 * ./gpio).  Validate the whole configuration, export/configure the lines
 * with rollback on failure, serve set/get on stdin, release on exit.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { F_LINE, F_DIRECTION, F_VALUE, F_ACTIVE_LOW, NFIELDS };

typedef struct {
    char name[16];
    int hdr;                 /* line number of "[name]" */
    unsigned seen;           /* bit i: field i given */
    int f[NFIELDS];
} line_cfg;

static line_cfg cfg[16];
static int ncfg;

/* error reporting for the configuration check */
static const char *cfgpath;
static int err_line;
static char err_msg[320];

static int fail(int lineno, const char *msg)
{
    err_line = lineno;
    snprintf(err_msg, sizeof err_msg, "%s", msg);
    return -1;
}

/* ---- value parsers: return 0 and store *out, or -1 ---------------- */

static int parse_lineno(const char *v, int *out)
{
    int n = 0;

    if (*v == '\0')
        return -1;
    for (; *v; v++) {
        if (*v < '0' || *v > '9')
            return -1;
        n = n * 10 + (*v - '0');
        if (n > 511)
            return -1;         /* stop before anything can overflow */
    }
    *out = n;
    return 0;
}

static int parse_word(const char *v, int *out, const char *w0, const char *w1)
{
    if (strcmp(v, w0) == 0) { *out = 0; return 0; }
    if (strcmp(v, w1) == 0) { *out = 1; return 0; }
    return -1;
}

static int parse_dir(const char *v, int *out)  { return parse_word(v, out, "in", "out"); }
static int parse_bit(const char *v, int *out)  { return parse_word(v, out, "0", "1"); }
static int parse_yesno(const char *v, int *out) { return parse_word(v, out, "no", "yes"); }

static const struct {
    const char *key;
    int (*parse)(const char *, int *);
} keys[NFIELDS] = {
    [F_LINE]       = { "line",       parse_lineno },
    [F_DIRECTION]  = { "direction",  parse_dir },
    [F_VALUE]      = { "value",      parse_bit },
    [F_ACTIVE_LOW] = { "active_low", parse_yesno },
};

/* ---- configuration check ------------------------------------------- */

static int section_done(const line_cfg *c)
{
    char m[64];

    if (!(c->seen & (1u << F_LINE)))
        snprintf(m, sizeof m, "section %s: missing line", c->name);
    else if (!(c->seen & (1u << F_DIRECTION)))
        snprintf(m, sizeof m, "section %s: missing direction", c->name);
    else if ((c->seen & (1u << F_VALUE)) && c->f[F_DIRECTION] == 0)
        snprintf(m, sizeof m, "section %s: value needs direction out", c->name);
    else
        return 0;
    return fail(c->hdr, m);
}

static char *trim(char *s)
{
    char *e;

    while (*s == ' ' || *s == '\t')
        s++;
    e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
        *--e = '\0';
    return s;
}

static int header_line(char *s, int lineno)
{
    size_t len = strlen(s), i;
    char m[64];
    line_cfg *c;

    if (len < 3 || len > 17 || s[len - 1] != ']')
        return fail(lineno, "bad section header");
    s[len - 1] = '\0';
    s++;
    for (i = 0; s[i]; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
              s[i] == '_'))
            return fail(lineno, "bad section header");

    for (i = 0; i < (size_t)ncfg; i++)
        if (strcmp(cfg[i].name, s) == 0) {
            snprintf(m, sizeof m, "duplicate section %s", s);
            return fail(lineno, m);
        }
    if (ncfg == 16)
        return fail(lineno, "too many sections");

    c = &cfg[ncfg++];
    memset(c, 0, sizeof *c);
    strcpy(c->name, s);
    c->hdr = lineno;
    return 0;
}

static int setting_line(char *s, int lineno)
{
    char *eq = strchr(s, '='), *key, *val;
    char m[300];
    line_cfg *c;
    int k, v, i;

    if (eq == NULL)
        return fail(lineno, "syntax error");
    *eq = '\0';
    key = trim(s);
    val = trim(eq + 1);
    if (*key == '\0')
        return fail(lineno, "syntax error");
    if (ncfg == 0)
        return fail(lineno, "setting outside section");
    c = &cfg[ncfg - 1];

    for (k = 0; k < NFIELDS; k++)
        if (strcmp(key, keys[k].key) == 0)
            break;
    if (k == NFIELDS) {
        snprintf(m, sizeof m, "unknown key %s", key);
        return fail(lineno, m);
    }
    if (c->seen & (1u << k)) {
        snprintf(m, sizeof m, "duplicate key %s", key);
        return fail(lineno, m);
    }
    if (keys[k].parse(val, &v) < 0) {
        snprintf(m, sizeof m, "bad value for %s", key);
        return fail(lineno, m);
    }
    if (k == F_LINE) {
        for (i = 0; i < ncfg - 1; i++)
            if (cfg[i].f[F_LINE] == v) {
                snprintf(m, sizeof m, "line %d already used by %s", v,
                         cfg[i].name);
                return fail(lineno, m);
            }
    }
    c->seen |= 1u << k;
    c->f[k] = v;
    return 0;
}

/* One line of the file, already stripped of its '\n'. */
static int check_line(char *raw, size_t len, int too_long, int lineno)
{
    char *s;

    if (too_long)
        return fail(lineno, "line too long");
    if (memchr(raw, '\0', len) != NULL)
        return fail(lineno, "syntax error");   /* binary junk */
    s = trim(raw);
    if (*s == '\0' || *s == '#')
        return 0;
    if (*s == '[') {
        if (ncfg > 0 && section_done(&cfg[ncfg - 1]) < 0)
            return -1;
        return header_line(s, lineno);
    }
    return setting_line(s, lineno);
}

/* Returns 0 when fine, 1 when the file cannot be read, -1 on a config error. */
static int read_config(void)
{
    char buf[202];           /* 200 characters + 1 to detect overflow + NUL */
    size_t len = 0;
    int too_long = 0, lineno = 0, ch, rc = 0;
    FILE *fp = fopen(cfgpath, "r");

    if (fp == NULL)
        return 1;

    for (;;) {
        ch = getc(fp);
        if (ch == EOF && len == 0 && !too_long)
            break;
        if (ch == EOF || ch == '\n') {
            buf[len] = '\0';
            if (check_line(buf, len, too_long, ++lineno) < 0) {
                rc = -1;
                break;
            }
            len = 0;
            too_long = 0;
            if (ch == EOF)
                break;
            continue;
        }
        if (len < 200)
            buf[len++] = (char)ch;
        else
            too_long = 1;
    }
    if (rc == 0 && ferror(fp))
        rc = 1;
    fclose(fp);
    if (rc != 0)
        return rc;

    if (ncfg > 0 && section_done(&cfg[ncfg - 1]) < 0)
        return -1;
    return 0;
}

/* ---- GPIO files ---------------------------------------------------- */

static int put(const char *path, int flags, const char *text)
{
    int fd = open(path, flags);
    ssize_t n;

    if (fd < 0)
        return 0;
    n = write(fd, text, strlen(text));
    if (close(fd) != 0)
        return 0;
    return n == (ssize_t)strlen(text);
}

static int gpio_ctl(const char *file, int line)
{
    char path[32], text[8];

    snprintf(path, sizeof path, "gpio/%s", file);
    snprintf(text, sizeof text, "%d\n", line);
    return put(path, O_WRONLY | O_APPEND, text);
}

static int gpio_attr(int line, const char *attr, const char *text)
{
    char path[48];

    snprintf(path, sizeof path, "gpio/gpio%d/%s", line, attr);
    return put(path, O_WRONLY | O_TRUNC, text);
}

/* ---- command loop -------------------------------------------------- */

static line_cfg *lookup(const char *name)
{
    for (int i = 0; i < ncfg; i++)
        if (strcmp(cfg[i].name, name) == 0)
            return &cfg[i];
    return NULL;
}

static void say(const char *a, const char *b, const char *c)
{
    printf("%s%s%s\n", a, b, c);
    fflush(stdout);
}

static void do_get(const char *name)
{
    line_cfg *c = lookup(name);
    char path[48], ch;
    int fd;
    ssize_t n = -1;

    if (c == NULL) {
        say("error: unknown ", name, "");
        return;
    }
    snprintf(path, sizeof path, "gpio/gpio%d/value", c->f[F_LINE]);
    fd = open(path, O_RDONLY);
    if (fd >= 0) {
        n = read(fd, &ch, 1);
        close(fd);
    }
    if (n != 1 || (ch != '0' && ch != '1')) {
        say("error: ", name, ": cannot read value");
        return;
    }
    say(name, "=", ((ch - '0') ^ c->f[F_ACTIVE_LOW]) ? "1" : "0");
}

static void do_set(const char *name, const char *v)
{
    line_cfg *c = lookup(name);
    int logical = v[0] - '0';

    if (c == NULL) {
        say("error: unknown ", name, "");
        return;
    }
    if (c->f[F_DIRECTION] == 0) {
        say("error: ", name, " is an input");
        return;
    }
    if (!gpio_attr(c->f[F_LINE], "value",
                   (logical ^ c->f[F_ACTIVE_LOW]) ? "1\n" : "0\n")) {
        say("error: ", name, ": cannot write value");
        return;
    }
    say(name, "=", v);
}

/* Splits at single spaces; returns number of fields or -1 if any is empty
 * or there are more than max. */
static int split(char *s, char **field, int max)
{
    int n = 0;

    for (;;) {
        char *sp = strchr(s, ' ');

        if (n == max)
            return -1;
        field[n++] = s;
        if (sp == NULL)
            break;
        *sp = '\0';
        s = sp + 1;
    }
    for (int i = 0; i < n; i++)
        if (field[i][0] == '\0')
            return -1;
    return n;
}

/* Reads one line of any length from stdin into a growing buffer.
 * Returns 0 at end of input (nothing read). */
static int read_command(char **buf, size_t *cap)
{
    size_t len = 0;
    int ch;

    while ((ch = getchar()) != EOF && ch != '\n') {
        if (len + 1 >= *cap) {
            size_t ncap = *cap ? *cap * 2 : 64;
            char *nb = realloc(*buf, ncap);

            if (nb == NULL)
                exit(1);
            *buf = nb;
            *cap = ncap;
        }
        (*buf)[len++] = (char)ch;
    }
    if (ch == EOF && len == 0)
        return 0;
    if (*buf == NULL) {
        *buf = malloc(64);
        if (*buf == NULL)
            exit(1);
        *cap = 64;
    }
    (*buf)[len] = '\0';
    return 1;
}

static void serve(void)
{
    char *buf = NULL;
    size_t cap = 0;

    while (read_command(&buf, &cap)) {
        char *fv[3];
        int nf = split(buf, fv, 3);

        if (nf == 1 && strcmp(fv[0], "quit") == 0)
            break;
        if (nf == 2 && strcmp(fv[0], "get") == 0)
            do_get(fv[1]);
        else if (nf == 3 && strcmp(fv[0], "set") == 0 &&
                 (strcmp(fv[2], "0") == 0 || strcmp(fv[2], "1") == 0))
            do_set(fv[1], fv[2]);
        else
            say("error: bad command", "", "");
    }
    free(buf);
}

/* ---- main ---------------------------------------------------------- */

int main(int argc, char *argv[])
{
    int rc, i;
    int done = 0;            /* sections fully configured */

    if (argc != 2) {
        fputs("usage: gpiocfg CONFIG\n", stderr);
        return 1;
    }
    cfgpath = argv[1];

    rc = read_config();
    if (rc == 1) {
        fprintf(stderr, "error: cannot read %s\n", cfgpath);
        return 2;
    }
    if (rc < 0) {
        fprintf(stderr, "%s:%d: %s\n", cfgpath, err_line, err_msg);
        return 2;
    }
    if (ncfg == 0) {
        fprintf(stderr, "%s: no sections\n", cfgpath);
        return 2;
    }

    for (done = 0; done < ncfg; done++) {
        line_cfg *c = &cfg[done];
        int line = c->f[F_LINE];
        const char *dir = "in\n";

        if (!gpio_ctl("export", line)) {
            fprintf(stderr, "error: %s: cannot export line %d\n", c->name, line);
            break;
        }
        if (c->f[F_DIRECTION] == 1)
            dir = (c->f[F_VALUE] ^ c->f[F_ACTIVE_LOW]) ? "high\n" : "low\n";
        if (!gpio_attr(line, "direction", dir)) {
            fprintf(stderr, "error: %s: cannot configure line %d\n",
                    c->name, line);
            break;
        }
    }

    if (done < ncfg) {
        for (i = done - 1; i >= 0; i--) {
            gpio_attr(cfg[i].f[F_LINE], "direction", "in\n");
            gpio_ctl("unexport", cfg[i].f[F_LINE]);
        }
        return 3;
    }

    printf("ready: %d lines\n", ncfg);
    fflush(stdout);

    serve();

    for (i = ncfg - 1; i >= 0; i--)
        gpio_ctl("unexport", cfg[i].f[F_LINE]);
    puts("bye");
    return 0;
}
