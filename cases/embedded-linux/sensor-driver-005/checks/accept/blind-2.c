#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stdbool.h>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>
#include <errno.h>
#include <sys/stat.h>

typedef struct {
    char     name[256];
    unsigned index;
    bool     be, sgn;
    unsigned bits, storage, shift;
    double   scale, offset;
    unsigned off;          /* offset inside the scan, bytes */
} chan_t;

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "iioscan: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

/* Reads a whole file into a malloc'd buffer (NUL terminated). */
static char *slurp(const char *path, size_t *len_out, int *err_out)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) { *err_out = errno; return NULL; }
    size_t cap = 256, len = 0;
    char *buf = malloc(cap + 1);
    for (;;) {
        if (len == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
        }
        if (!buf) die("out of memory", NULL);
        ssize_t n = read(fd, buf + len, cap - len);
        if (n < 0) {
            if (errno == EINTR) continue;
            *err_out = errno;
            free(buf);
            close(fd);
            return NULL;
        }
        if (n == 0) break;
        len += (size_t)n;
    }
    close(fd);
    buf[len] = '\0';
    if (len_out) *len_out = len;
    return buf;
}

/* One line with a trailing newline; returns the text without it.  NULL if
 * the file is missing and missing_ok; dies on any other problem. */
static char *read_attr(const char *path, bool missing_ok)
{
    size_t len;
    int err = 0;
    char *s = slurp(path, &len, &err);
    if (!s) {
        if (missing_ok && err == ENOENT) return NULL;
        die("cannot read", path);
    }
    if (len == 0 || s[len - 1] != '\n' || strlen(s) != len ||
        strchr(s, '\n') != s + len - 1)
        die("malformed file", path);
    s[len - 1] = '\0';
    return s;
}

static bool all_digits(const char *s, size_t n)
{
    if (n == 0) return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9') return false;
    return true;
}

static bool parse_number(const char *s, double *v)
{
    const char *p = (*s == '-' || *s == '+') ? s + 1 : s;
    size_t ip = strspn(p, "0123456789");
    size_t fp = 0;
    if (p[ip] == '.')
        fp = strspn(p + ip + 1, "0123456789");
    size_t total = ip + (p[ip] == '.' ? 1 + fp : 0);
    if (ip + fp == 0 || p[total] != '\0') return false;
    char *end;
    *v = strtod(s, &end);
    return *end == '\0';
}

static bool parse_type(const char *s, chan_t *c)
{
    char e[3], sg;
    unsigned bits, st, sh;
    int n = -1;
    if (sscanf(s, "%2[lbe]:%c%u/%u>>%u%n", e, &sg, &bits, &st, &sh, &n) != 5 || n < 0)
        return false;
    /* re-render to reject anything sscanf tolerated (spaces, signs, junk) */
    char canon[64];
    snprintf(canon, sizeof canon, "%s:%c%u/%u>>%u", e, sg, bits, st, sh);
    if (strcmp(canon, s) != 0) return false;
    if (strcmp(e, "le") && strcmp(e, "be")) return false;
    if (sg != 's' && sg != 'u') return false;
    if (st != 8 && st != 16 && st != 32 && st != 64) return false;
    if (bits < 1 || bits > st || sh > st - bits) return false;
    c->be = (e[0] == 'b');
    c->sgn = (sg == 's');
    c->bits = bits;
    c->storage = st;
    c->shift = sh;
    return true;
}

static double attr_value(const char *dev, const char *name, const char *kind, double dflt)
{
    char path[8192];
    snprintf(path, sizeof path, "%s/in_%s_%s", dev, name, kind);
    char *s = read_attr(path, true);
    if (!s) {
        char prefix[256];
        size_t i = 0;
        for (; name[i] && name[i] != '_' && !(name[i] >= '0' && name[i] <= '9'); i++)
            prefix[i] = name[i];
        prefix[i] = '\0';
        snprintf(path, sizeof path, "%s/in_%s_%s", dev, prefix, kind);
        s = read_attr(path, true);
        if (!s) return dflt;
    }
    double v;
    if (!parse_number(s, &v)) die("malformed number", path);
    free(s);
    return v;
}

static int64_t extract(const unsigned char *p, const chan_t *c)
{
    unsigned n = c->storage / 8;
    uint64_t v = 0;
    if (c->be) {
        for (unsigned i = 0; i < n; i++) v = (v << 8) | p[i];
    } else {
        for (unsigned i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
    }
    v >>= c->shift;
    unsigned unused = 64 - c->bits;
    v = (v << unused);                 /* drop bits above <bits> */
    if (c->sgn)
        return (int64_t)v >> unused;   /* arithmetic shift sign-extends */
    return (int64_t)(v >> unused);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fputs("usage: app <devdir> <capture>\n", stderr);
        return 1;
    }
    const char *dev = argv[1];
    char path[8192];

    snprintf(path, sizeof path, "%s/scan_elements", dev);
    DIR *d = opendir(path);
    if (!d) die("cannot open", path);

    chan_t *ch = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t L = strlen(e->d_name);
        if (L < 7 || memcmp(e->d_name, "in_", 3) || memcmp(e->d_name + L - 3, "_en", 3))
            continue;
        size_t nl = L - 6;
        if (nl >= sizeof ch->name) die("channel name too long", e->d_name);
        char name[256];
        memcpy(name, e->d_name + 3, nl);
        name[nl] = '\0';

        snprintf(path, sizeof path, "%s/scan_elements/in_%s_en", dev, name);
        char *en = read_attr(path, false);
        bool on;
        if (!strcmp(en, "1")) on = true;
        else if (!strcmp(en, "0")) on = false;
        else die("malformed file", path);
        free(en);
        if (!on) continue;

        chan_t c;
        memset(&c, 0, sizeof c);
        strcpy(c.name, name);

        snprintf(path, sizeof path, "%s/scan_elements/in_%s_index", dev, name);
        char *ix = read_attr(path, false);
        if (!all_digits(ix, strlen(ix)) || strlen(ix) > 9) die("malformed file", path);
        c.index = (unsigned)strtoul(ix, NULL, 10);
        free(ix);

        snprintf(path, sizeof path, "%s/scan_elements/in_%s_type", dev, name);
        char *ty = read_attr(path, false);
        if (!parse_type(ty, &c)) die("malformed file", path);
        free(ty);

        if (strcmp(name, "timestamp") != 0) {
            c.scale = attr_value(dev, name, "scale", 1.0);
            c.offset = attr_value(dev, name, "offset", 0.0);
        }

        /* insertion into list kept sorted by scan index */
        ch = realloc(ch, (n + 1) * sizeof *ch);
        if (!ch) die("out of memory", NULL);
        size_t at = n;
        while (at > 0 && ch[at - 1].index > c.index) {
            ch[at] = ch[at - 1];
            at--;
        }
        ch[at] = c;
        n++;
    }
    closedir(d);
    if (n == 0) die("no channel is enabled", NULL);

    /* IIO ABI layout: natural alignment, scan padded to largest element */
    unsigned cursor = 0, largest = 1;
    for (size_t i = 0; i < n; i++) {
        unsigned sz = ch[i].storage / 8;
        if (cursor % sz) cursor += sz - cursor % sz;
        ch[i].off = cursor;
        cursor += sz;
        if (sz > largest) largest = sz;
    }
    unsigned scan = cursor;
    if (scan % largest) scan += largest - scan % largest;

    size_t total;
    int err = 0;
    unsigned char *buf = (unsigned char *)slurp(argv[2], &total, &err);
    if (!buf) die("cannot read", argv[2]);

    size_t whole = total / scan;
    for (size_t k = 0; k < whole; k++) {
        const unsigned char *s = buf + k * scan;
        printf("%zu:", k);
        for (size_t i = 0; i < n; i++) {
            int64_t raw = extract(s + ch[i].off, &ch[i]);
            if (!strcmp(ch[i].name, "timestamp")) {
                if (ch[i].sgn)
                    printf(" %s=%lld", ch[i].name, (long long)raw);
                else
                    printf(" %s=%llu", ch[i].name, (unsigned long long)(uint64_t)raw);
            } else {
                double r = ch[i].sgn ? (double)raw : (double)(uint64_t)raw;
                printf(" %s=%.3f", ch[i].name, (r + ch[i].offset) * ch[i].scale);
            }
        }
        putchar('\n');
    }
    if (total % scan)
        fprintf(stderr, "warning: %zu trailing bytes ignored\n", total % scan);
    free(buf);
    free(ch);
    return 0;
}
