/* defect: off-by-one in the length limit: a line of exactly 200 characters is reported as 'line too long'.
 * breaks: "A line longer than 200 characters (not counting the `\n`) is an error."
 * must_fail: scenario_err_line_too_long
 */
/* gpiocfg - GPIO daemon for an irrigation controller.
 *
 * Usage: gpiocfg CONFIG
 *
 * Validates CONFIG completely, exports and configures the lines through the
 * sysfs-style interface in ./gpio, serves set/get commands on stdin and
 * releases every line on the way out.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#define MAX_SECTIONS   16
#define MAX_LINE_LEN   200
#define MAX_NAME_LEN   15
#define MAX_GPIO_LINE  511

#define GPIO_DIR       "gpio"

struct section {
    char name[MAX_NAME_LEN + 1];
    int  header_lineno;
    int  line;        /* -1: not given */
    int  dir_out;     /* -1: not given, 0: in, 1: out */
    int  value;       /* -1: not given */
    int  active_low;  /* -1: not given */
};

static struct section sections[MAX_SECTIONS];
static int nsections;
static const char *config_name;

/* ------------------------------------------------------------------ */
/* Configuration parsing                                               */
/* ------------------------------------------------------------------ */

static void config_error(int lineno, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "%s:%d: ", config_name, lineno);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(2);
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

static int is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

static int span_equals(const char *s, size_t len, const char *word)
{
    return strlen(word) == len && memcmp(s, word, len) == 0;
}

static void check_section_complete(const struct section *sec)
{
    if (sec->line < 0)
        config_error(sec->header_lineno, "section %s: missing line", sec->name);
    if (sec->dir_out < 0)
        config_error(sec->header_lineno, "section %s: missing direction",
                     sec->name);
    if (sec->dir_out == 0 && sec->value >= 0)
        config_error(sec->header_lineno,
                     "section %s: value needs direction out", sec->name);
}

/* Parses "0".."511" made of decimal digits only; returns -1 otherwise. */
static int parse_line_number(const char *s, size_t len)
{
    long v = 0;
    size_t i;

    if (len == 0)
        return -1;
    for (i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
        if (v > MAX_GPIO_LINE)
            return -1;
    }
    return (int)v;
}

static void handle_header(const char *s, size_t len, int lineno)
{
    size_t namelen, i;
    struct section *sec;
    int k;

    if (len < 3 || s[len - 1] != ']')
        config_error(lineno, "bad section header");
    namelen = len - 2;
    if (namelen > MAX_NAME_LEN)
        config_error(lineno, "bad section header");
    for (i = 0; i < namelen; i++)
        if (!is_name_char(s[1 + i]))
            config_error(lineno, "bad section header");

    for (k = 0; k < nsections; k++)
        if (strlen(sections[k].name) == namelen &&
            memcmp(sections[k].name, s + 1, namelen) == 0)
            config_error(lineno, "duplicate section %.*s", (int)namelen, s + 1);

    if (nsections == MAX_SECTIONS)
        config_error(lineno, "too many sections");

    sec = &sections[nsections++];
    memcpy(sec->name, s + 1, namelen);
    sec->name[namelen] = '\0';
    sec->header_lineno = lineno;
    sec->line = -1;
    sec->dir_out = -1;
    sec->value = -1;
    sec->active_low = -1;
}

static void handle_setting(struct section *cur, const char *s, size_t len,
                           int lineno)
{
    const char *eq = memchr(s, '=', len);
    const char *key, *val;
    size_t klen, vlen;
    int k;

    if (eq == NULL)
        config_error(lineno, "syntax error");

    key = s;
    klen = (size_t)(eq - s);
    while (klen > 0 && is_blank(key[klen - 1]))
        klen--;
    if (klen == 0)
        config_error(lineno, "syntax error");

    if (cur == NULL)
        config_error(lineno, "setting outside section");

    val = eq + 1;
    vlen = len - (size_t)(val - s);
    while (vlen > 0 && is_blank(*val)) {
        val++;
        vlen--;
    }

    if (span_equals(key, klen, "line")) {
        int n;

        if (cur->line >= 0)
            config_error(lineno, "duplicate key line");
        n = parse_line_number(val, vlen);
        if (n < 0)
            config_error(lineno, "bad value for line");
        for (k = 0; k < nsections - 1; k++)
            if (sections[k].line == n)
                config_error(lineno, "line %d already used by %s", n,
                             sections[k].name);
        cur->line = n;
    } else if (span_equals(key, klen, "direction")) {
        if (cur->dir_out >= 0)
            config_error(lineno, "duplicate key direction");
        if (span_equals(val, vlen, "in"))
            cur->dir_out = 0;
        else if (span_equals(val, vlen, "out"))
            cur->dir_out = 1;
        else
            config_error(lineno, "bad value for direction");
    } else if (span_equals(key, klen, "value")) {
        if (cur->value >= 0)
            config_error(lineno, "duplicate key value");
        if (span_equals(val, vlen, "0"))
            cur->value = 0;
        else if (span_equals(val, vlen, "1"))
            cur->value = 1;
        else
            config_error(lineno, "bad value for value");
    } else if (span_equals(key, klen, "active_low")) {
        if (cur->active_low >= 0)
            config_error(lineno, "duplicate key active_low");
        if (span_equals(val, vlen, "yes"))
            cur->active_low = 1;
        else if (span_equals(val, vlen, "no"))
            cur->active_low = 0;
        else
            config_error(lineno, "bad value for active_low");
    } else {
        config_error(lineno, "unknown key %.*s", (int)klen, key);
    }
}

static void load_config(void)
{
    FILE *f = fopen(config_name, "r");
    char *buf = NULL;
    size_t cap = 0;
    ssize_t n;
    int lineno = 0;
    struct section *cur = NULL;
    int k;

    if (f == NULL) {
        fprintf(stderr, "error: cannot read %s\n", config_name);
        exit(2);
    }

    while ((n = getline(&buf, &cap, f)) != -1) {
        size_t len = (size_t)n;
        char *s, *e;

        lineno++;
        if (len > 0 && buf[len - 1] == '\n')
            len--;
        if (len >= MAX_LINE_LEN)
            config_error(lineno, "line too long");

        s = buf;
        e = buf + len;
        while (s < e && is_blank(*s))
            s++;
        while (e > s && is_blank(e[-1]))
            e--;
        if (s == e || *s == '#')
            continue;

        if (*s == '[') {
            if (cur != NULL)
                check_section_complete(cur);
            handle_header(s, (size_t)(e - s), lineno);
            cur = &sections[nsections - 1];
        } else {
            handle_setting(cur, s, (size_t)(e - s), lineno);
        }
    }
    if (ferror(f)) {
        fprintf(stderr, "error: cannot read %s\n", config_name);
        exit(2);
    }
    free(buf);
    fclose(f);

    if (cur != NULL)
        check_section_complete(cur);
    if (nsections == 0) {
        fprintf(stderr, "%s: no sections\n", config_name);
        exit(2);
    }

    for (k = 0; k < nsections; k++) {
        if (sections[k].value < 0)
            sections[k].value = 0;
        if (sections[k].active_low < 0)
            sections[k].active_low = 0;
    }
}

/* ------------------------------------------------------------------ */
/* GPIO file access (one file open at a time)                          */
/* ------------------------------------------------------------------ */

static int write_text(const char *path, int flags, const char *text)
{
    size_t len = strlen(text);
    ssize_t w;
    int fd, ok;

    fd = open(path, flags);
    if (fd < 0)
        return -1;
    w = write(fd, text, len);
    ok = (w == (ssize_t)len);
    if (close(fd) < 0)
        ok = 0;
    return ok ? 0 : -1;
}

static int gpio_export_op(const char *which, int line)
{
    char path[64], text[16];

    snprintf(path, sizeof path, GPIO_DIR "/%s", which);
    snprintf(text, sizeof text, "%d\n", line);
    return write_text(path, O_WRONLY | O_APPEND, text);
}

static int gpio_write_attr(int line, const char *attr, const char *text)
{
    char path[64];

    snprintf(path, sizeof path, GPIO_DIR "/gpio%d/%s", line, attr);
    return write_text(path, O_WRONLY | O_TRUNC, text);
}

static int gpio_read_value(int line)
{
    char path[64], c;
    ssize_t r;
    int fd;

    snprintf(path, sizeof path, GPIO_DIR "/gpio%d/value", line);
    fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    r = read(fd, &c, 1);
    close(fd);
    if (r != 1 || (c != '0' && c != '1'))
        return -1;
    return c - '0';
}

/* ------------------------------------------------------------------ */
/* Commands                                                            */
/* ------------------------------------------------------------------ */

static struct section *find_section(const char *name)
{
    int k;

    for (k = 0; k < nsections; k++)
        if (strcmp(sections[k].name, name) == 0)
            return &sections[k];
    return NULL;
}

static void reply(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    fflush(stdout);
}

static void cmd_set(const char *name, int v)
{
    struct section *sec = find_section(name);

    if (sec == NULL) {
        reply("error: unknown %s\n", name);
        return;
    }
    if (!sec->dir_out) {
        reply("error: %s is an input\n", name);
        return;
    }
    if (gpio_write_attr(sec->line, "value",
                        (v ^ sec->active_low) ? "1\n" : "0\n") < 0) {
        reply("error: %s: cannot write value\n", name);
        return;
    }
    reply("%s=%d\n", name, v);
}

static void cmd_get(const char *name)
{
    struct section *sec = find_section(name);
    int phys;

    if (sec == NULL) {
        reply("error: unknown %s\n", name);
        return;
    }
    phys = gpio_read_value(sec->line);
    if (phys < 0) {
        reply("error: %s: cannot read value\n", name);
        return;
    }
    reply("%s=%d\n", name, phys ^ sec->active_low);
}

/* Returns 1 when the loop must stop. */
static int run_command(char *line)
{
    char *name, *sp;

    if (strcmp(line, "quit") == 0)
        return 1;

    if (strncmp(line, "get ", 4) == 0) {
        name = line + 4;
        if (*name == '\0' || strchr(name, ' ') != NULL)
            reply("error: bad command\n");
        else
            cmd_get(name);
        return 0;
    }

    if (strncmp(line, "set ", 4) == 0) {
        name = line + 4;
        sp = strchr(name, ' ');
        if (sp == NULL || sp == name ||
            (sp[1] != '0' && sp[1] != '1') || sp[2] != '\0') {
            reply("error: bad command\n");
            return 0;
        }
        *sp = '\0';
        cmd_set(name, sp[1] - '0');
        return 0;
    }

    reply("error: bad command\n");
    return 0;
}

static void command_loop(void)
{
    char *buf = NULL;
    size_t cap = 0;
    ssize_t n;

    while ((n = getline(&buf, &cap, stdin)) != -1) {
        size_t len = (size_t)n;

        if (len > 0 && buf[len - 1] == '\n')
            buf[--len] = '\0';
        if (strlen(buf) != len) {          /* embedded NUL byte */
            reply("error: bad command\n");
            continue;
        }
        if (run_command(buf))
            break;
    }
    free(buf);
}

/* ------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    int exported[MAX_SECTIONS] = { 0 };
    int configured[MAX_SECTIONS] = { 0 };
    int k, failed = 0;

    if (argc != 2) {
        fprintf(stderr, "usage: gpiocfg CONFIG\n");
        return 1;
    }
    config_name = argv[1];
    load_config();

    for (k = 0; k < nsections && !failed; k++) {
        struct section *sec = &sections[k];
        const char *dir;

        if (gpio_export_op("export", sec->line) < 0) {
            fprintf(stderr, "error: %s: cannot export line %d\n",
                    sec->name, sec->line);
            failed = 1;
            break;
        }
        exported[k] = 1;

        if (!sec->dir_out)
            dir = "in\n";
        else
            dir = (sec->value ^ sec->active_low) ? "high\n" : "low\n";
        if (gpio_write_attr(sec->line, "direction", dir) < 0) {
            fprintf(stderr, "error: %s: cannot configure line %d\n",
                    sec->name, sec->line);
            failed = 1;
            break;
        }
        configured[k] = 1;
    }

    if (failed) {
        for (k = nsections - 1; k >= 0; k--) {
            if (configured[k])
                gpio_write_attr(sections[k].line, "direction", "in\n");
            if (exported[k])
                gpio_export_op("unexport", sections[k].line);
        }
        return 3;
    }

    reply("ready: %d lines\n", nsections);
    command_loop();

    for (k = nsections - 1; k >= 0; k--)
        gpio_export_op("unexport", sections[k].line);
    reply("bye\n");
    return 0;
}
