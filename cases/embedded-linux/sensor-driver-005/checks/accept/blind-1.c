/*
 * iioscan - decode a Linux IIO buffer capture using the device's
 * scan_elements description.
 *
 * usage: app <devdir> <capture>
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <ctype.h>
#include <dirent.h>
#include <inttypes.h>

#define MAX_PATH 4096

struct channel {
    char    *name;
    int      enabled;
    long     index;
    int      big_endian;
    int      is_signed;
    unsigned bits;
    unsigned storagebits;
    unsigned shift;
    int      is_timestamp;
    double   scale;
    double   offset;
    size_t   pos;           /* byte offset inside the scan */
};

static const char *g_devdir;

static void fail(const char *fmt, const char *arg)
{
    fprintf(stderr, "iioscan: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    exit(1);
}

/*
 * Read a one-line file into buf (newline stripped).
 * Returns 0 on success, -1 if the file does not exist; any other failure,
 * or content that is not a single newline-terminated line, is fatal.
 */
static int read_line_file(const char *path, char *buf, size_t cap, int optional)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        if (optional && errno == ENOENT)
            return -1;
        fail("cannot read %s", path);
    }
    size_t n = fread(buf, 1, cap - 1, f);
    int err = ferror(f);
    int more = (n == cap - 1) && fgetc(f) != EOF;
    fclose(f);
    if (err)
        fail("cannot read %s", path);
    if (more)
        fail("bad content in %s", path);
    buf[n] = '\0';
    if (n == 0 || buf[n - 1] != '\n' || memchr(buf, '\n', n - 1) != NULL ||
        strlen(buf) != n)
        fail("bad content in %s", path);
    buf[n - 1] = '\0';
    return 0;
}

static int parse_uint(const char **pp, unsigned long *out)
{
    const char *p = *pp;
    unsigned long v = 0;
    if (!isdigit((unsigned char)*p))
        return -1;
    while (isdigit((unsigned char)*p)) {
        if (v > 100000000UL)
            return -1;
        v = v * 10 + (unsigned long)(*p - '0');
        p++;
    }
    *pp = p;
    *out = v;
    return 0;
}

static int parse_type(const char *s, struct channel *ch)
{
    unsigned long bits, sbits, shift;

    if (strncmp(s, "le:", 3) == 0)
        ch->big_endian = 0;
    else if (strncmp(s, "be:", 3) == 0)
        ch->big_endian = 1;
    else
        return -1;
    s += 3;
    if (*s == 's')
        ch->is_signed = 1;
    else if (*s == 'u')
        ch->is_signed = 0;
    else
        return -1;
    s++;
    if (parse_uint(&s, &bits) != 0 || *s++ != '/')
        return -1;
    if (parse_uint(&s, &sbits) != 0 || strncmp(s, ">>", 2) != 0)
        return -1;
    s += 2;
    if (parse_uint(&s, &shift) != 0 || *s != '\0')
        return -1;
    if (sbits != 8 && sbits != 16 && sbits != 32 && sbits != 64)
        return -1;
    if (bits < 1 || bits + shift > sbits)
        return -1;
    ch->bits = (unsigned)bits;
    ch->storagebits = (unsigned)sbits;
    ch->shift = (unsigned)shift;
    return 0;
}

/* A decimal number: optional sign, digits, optional fraction. */
static int parse_decimal(const char *s, double *out)
{
    const char *p = s;
    int digits = 0;
    if (*p == '+' || *p == '-')
        p++;
    while (isdigit((unsigned char)*p)) { p++; digits++; }
    if (*p == '.') {
        p++;
        while (isdigit((unsigned char)*p)) { p++; digits++; }
    }
    if (digits == 0 || *p != '\0')
        return -1;
    *out = strtod(s, NULL);
    return 0;
}

/* Look up <devdir>/in_<name>_<what>, then the shared in_<prefix>_<what>. */
static double lookup_attr(const char *name, const char *what, double dflt)
{
    char path[MAX_PATH];
    char buf[256];
    double v;

    snprintf(path, sizeof path, "%s/in_%s_%s", g_devdir, name, what);
    if (read_line_file(path, buf, sizeof buf, 1) != 0) {
        size_t plen = 0;
        while (name[plen] != '\0' && name[plen] != '_' &&
               !isdigit((unsigned char)name[plen]))
            plen++;
        snprintf(path, sizeof path, "%s/in_%.*s_%s", g_devdir, (int)plen,
                 name, what);
        if (read_line_file(path, buf, sizeof buf, 1) != 0)
            return dflt;
    }
    if (parse_decimal(buf, &v) != 0)
        fail("bad number in %s", path);
    return v;
}

static int by_index(const void *a, const void *b)
{
    const struct channel *x = a, *y = b;
    return (x->index > y->index) - (x->index < y->index);
}

static uint64_t decode_raw(const unsigned char *p, const struct channel *ch)
{
    unsigned nbytes = ch->storagebits / 8;
    uint64_t v = 0;

    for (unsigned i = 0; i < nbytes; i++) {
        unsigned idx = ch->big_endian ? i : nbytes - 1 - i;
        v = (v << 8) | p[idx];
    }
    v >>= ch->shift;
    if (ch->bits < 64) {
        v &= ((uint64_t)1 << ch->bits) - 1;
        if (ch->is_signed && (v >> (ch->bits - 1)) & 1)
            v |= ~(((uint64_t)1 << ch->bits) - 1);
    }
    return v;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s <devdir> <capture>\n",
                argc > 0 ? argv[0] : "iioscan");
        return 1;
    }
    g_devdir = argv[1];

    char path[MAX_PATH];
    char buf[256];

    snprintf(path, sizeof path, "%s/scan_elements", g_devdir);
    DIR *dir = opendir(path);
    if (dir == NULL)
        fail("cannot read directory %s", path);

    struct channel *chans = NULL;
    size_t nch = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(dir)) != NULL) {
        const char *fn = de->d_name;
        size_t len = strlen(fn);
        if (len <= 6 || strncmp(fn, "in_", 3) != 0 ||
            strcmp(fn + len - 3, "_en") != 0)
            continue;
        if (nch == cap) {
            cap = cap ? cap * 2 : 16;
            chans = realloc(chans, cap * sizeof *chans);
            if (chans == NULL)
                fail("%s", "out of memory");
        }
        struct channel *ch = &chans[nch++];
        memset(ch, 0, sizeof *ch);
        ch->name = strndup(fn + 3, len - 6);
        if (ch->name == NULL)
            fail("%s", "out of memory");
    }
    closedir(dir);

    size_t nen = 0;
    for (size_t i = 0; i < nch; i++) {
        struct channel *ch = &chans[i];
        snprintf(path, sizeof path, "%s/scan_elements/in_%s_en", g_devdir, ch->name);
        read_line_file(path, buf, sizeof buf, 0);
        if (strcmp(buf, "1") == 0)
            ch->enabled = 1;
        else if (strcmp(buf, "0") == 0)
            ch->enabled = 0;
        else
            fail("bad content in %s", path);
        if (!ch->enabled)
            continue;

        snprintf(path, sizeof path, "%s/scan_elements/in_%s_index", g_devdir, ch->name);
        read_line_file(path, buf, sizeof buf, 0);
        const char *p = buf;
        unsigned long idx;
        if (parse_uint(&p, &idx) != 0 || *p != '\0')
            fail("bad content in %s", path);
        ch->index = (long)idx;

        snprintf(path, sizeof path, "%s/scan_elements/in_%s_type", g_devdir, ch->name);
        read_line_file(path, buf, sizeof buf, 0);
        if (parse_type(buf, ch) != 0)
            fail("bad content in %s", path);

        ch->is_timestamp = strcmp(ch->name, "timestamp") == 0;
        if (!ch->is_timestamp) {
            ch->scale = lookup_attr(ch->name, "scale", 1.0);
            ch->offset = lookup_attr(ch->name, "offset", 0.0);
        }
        /* keep enabled channels at the front */
        if (nen != i) {
            struct channel tmp = chans[nen];
            chans[nen] = *ch;
            chans[i] = tmp;
        }
        nen++;
    }
    if (nen == 0)
        fail("%s", "no channel is enabled");

    qsort(chans, nen, sizeof *chans, by_index);

    size_t pos = 0, maxsize = 0;
    for (size_t i = 0; i < nen; i++) {
        size_t sz = chans[i].storagebits / 8;
        pos = (pos + sz - 1) / sz * sz;
        chans[i].pos = pos;
        pos += sz;
        if (sz > maxsize)
            maxsize = sz;
    }
    size_t scan_size = (pos + maxsize - 1) / maxsize * maxsize;

    FILE *cf = fopen(argv[2], "rb");
    if (cf == NULL)
        fail("cannot read %s", argv[2]);
    size_t dlen = 0, dcap = 65536;
    unsigned char *data = malloc(dcap);
    if (data == NULL)
        fail("%s", "out of memory");
    for (;;) {
        if (dlen == dcap) {
            dcap *= 2;
            data = realloc(data, dcap);
            if (data == NULL)
                fail("%s", "out of memory");
        }
        size_t n = fread(data + dlen, 1, dcap - dlen, cf);
        dlen += n;
        if (n == 0)
            break;
    }
    if (ferror(cf))
        fail("cannot read %s", argv[2]);
    fclose(cf);

    size_t nscans = dlen / scan_size;
    for (size_t k = 0; k < nscans; k++) {
        const unsigned char *scan = data + k * scan_size;
        printf("%zu:", k);
        for (size_t i = 0; i < nen; i++) {
            const struct channel *ch = &chans[i];
            uint64_t raw = decode_raw(scan + ch->pos, ch);
            if (ch->is_timestamp) {
                if (ch->is_signed)
                    printf(" %s=%" PRId64, ch->name, (int64_t)raw);
                else
                    printf(" %s=%" PRIu64, ch->name, raw);
            } else {
                double r = ch->is_signed ? (double)(int64_t)raw : (double)raw;
                printf(" %s=%.3f", ch->name, (r + ch->offset) * ch->scale);
            }
        }
        putchar('\n');
    }
    if (dlen % scan_size != 0)
        fprintf(stderr, "warning: %zu trailing bytes ignored\n", dlen % scan_size);

    free(data);
    for (size_t i = 0; i < nch; i++)
        free(chans[i].name);
    free(chans);
    return 0;
}
