/* abupd: A/B update agent for the field gateway (install / boot / mark-good).
 *
 * Works on files in the current directory: slot_a.img, slot_b.img and the
 * boot control file bootctl.  The update image is never held in memory as a
 * whole: it is streamed once to validate it and once more to copy it. */
#define _FILE_OFFSET_BITS 64
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PAYLOAD_LIMIT 16777216UL

typedef struct {
    char     state[6];          /* "good", "trial" or "bad" */
    unsigned attempts;
    unsigned long version;
} slot_t;

typedef struct {
    int    active;              /* index into slot[]: 0 = A, 1 = B */
    slot_t slot[2];
} ctl_t;

static const char *const SLOT_IMG[2] = { "slot_a.img", "slot_b.img" };
#define NAME(i) ("AB"[(i)])

_Noreturn static void die(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(status);
}

/* ---- CRC-32 (bitwise, reflected) ---------------------------------------- */

static uint32_t crc32_step(uint32_t reg, const unsigned char *p, size_t n)
{
    while (n--) {
        reg ^= *p++;
        for (int i = 0; i < 8; i++)
            reg = (reg & 1u) ? (reg >> 1) ^ 0xEDB88320u : (reg >> 1);
    }
    return reg;
}

/* ---- low-level I/O ------------------------------------------------------ */

/* read up to n bytes, stopping only at EOF; returns count or -1 */
static ssize_t read_full(int fd, void *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, (char *)buf + got, n - got);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

static int write_full(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* ---- bootctl parsing ---------------------------------------------------- */

/* split s at single spaces into at most max fields; -1 on empty field */
static int split_fields(char *s, char **f, int max)
{
    int n = 0;
    for (;;) {
        if (n == max)
            return -1;
        f[n++] = s;
        char *sp = strchr(s, ' ');
        if (!sp)
            break;
        *sp = '\0';
        s = sp + 1;
    }
    for (int i = 0; i < n; i++)
        if (f[i][0] == '\0')
            return -1;
    return n;
}

static int parse_number(const char *s, unsigned long max, unsigned long *out)
{
    unsigned long v = 0;
    if (!*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        unsigned d = (unsigned)(*s - '0');
        if (v > (max - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

static int parse_ctl(char *text, size_t len, ctl_t *c)
{
    char *line[3];
    size_t pos = 0;

    if (memchr(text, '\0', len))
        return -1;
    for (int i = 0; i < 3; i++) {
        char *nl = memchr(text + pos, '\n', len - pos);
        if (!nl)
            return -1;
        *nl = '\0';
        line[i] = text + pos;
        pos = (size_t)(nl - text) + 1;
    }
    if (pos != len)
        return -1;

    char *f[4];
    if (split_fields(line[0], f, 2) != 2 || strcmp(f[0], "active") != 0)
        return -1;
    if (strcmp(f[1], "A") == 0)
        c->active = 0;
    else if (strcmp(f[1], "B") == 0)
        c->active = 1;
    else
        return -1;

    for (int i = 0; i < 2; i++) {
        unsigned long att, ver;
        char tag[2] = { NAME(i), '\0' };
        if (split_fields(line[i + 1], f, 4) != 4 || strcmp(f[0], tag) != 0)
            return -1;
        int trial = strcmp(f[1], "trial") == 0;
        if (!trial && strcmp(f[1], "good") != 0 && strcmp(f[1], "bad") != 0)
            return -1;
        if (parse_number(f[2], 3, &att) || parse_number(f[3], 4294967295UL, &ver))
            return -1;
        if (!trial && att != 0)
            return -1;
        strcpy(c->slot[i].state, f[1]);
        c->slot[i].attempts = (unsigned)att;
        c->slot[i].version = ver;
    }
    return 0;
}

static void load_ctl(ctl_t *c)
{
    char text[256];
    int fd = open("bootctl", O_RDONLY);
    ssize_t n = fd < 0 ? -1 : read_full(fd, text, sizeof text);
    if (fd >= 0)
        close(fd);
    if (n < 0 || (size_t)n == sizeof text || parse_ctl(text, (size_t)n, c) != 0)
        die(3, "error: bad control file");
}

/* ---- bootctl saving: temp file, fsync, rename, fsync(dir) ---------------- */

static void save_ctl(const ctl_t *c)
{
    char text[128];
    int len = snprintf(text, sizeof text, "active %c\n", NAME(c->active));
    for (int i = 0; i < 2; i++)
        len += snprintf(text + len, sizeof text - (size_t)len, "%c %s %u %lu\n",
                        NAME(i), c->slot[i].state, c->slot[i].attempts,
                        c->slot[i].version);

    char tmp[] = "bootctl.XXXXXX";
    int fd = mkstemp(tmp);
    if (fd < 0)
        die(5, "error: cannot save control file");
    int bad = fchmod(fd, 0644) != 0;
    bad = bad || write_full(fd, text, (size_t)len) != 0;
    bad = bad || fsync(fd) != 0;
    bad = (close(fd) != 0) || bad;
    bad = bad || rename(tmp, "bootctl") != 0;
    if (bad) {
        unlink(tmp);
        die(5, "error: cannot save control file");
    }

    int dir = open(".", O_RDONLY | O_DIRECTORY);
    if (dir < 0)
        die(5, "error: cannot save control file");
    bad = fsync(dir) != 0;
    close(dir);
    if (bad)
        die(5, "error: cannot save control file");
}

/* ---- commands ------------------------------------------------------------ */

static int do_install(ctl_t *c, const char *path)
{
    unsigned char hdr[16], buf[1 << 16];
    int in = open(path, O_RDONLY);
    if (in < 0)
        die(2, "error: cannot read update");

    /* pass 1: header, exact length and CRC, streaming */
    ssize_t h = read_full(in, hdr, sizeof hdr);
    if (h < 0)
        die(2, "error: cannot read update");
    unsigned long long total = (unsigned long long)h;
    uint32_t reg = 0xFFFFFFFFu;
    for (;;) {
        ssize_t r = read_full(in, buf, sizeof buf);
        if (r < 0)
            die(2, "error: cannot read update");
        if (r == 0)
            break;
        if (total - 16 + (unsigned long long)r <= PAYLOAD_LIMIT)
            reg = crc32_step(reg, buf, (size_t)r);
        total += (unsigned long long)r;
        if (total > 16 + PAYLOAD_LIMIT)
            break;               /* too long whatever the header says */
    }
    uint32_t crc = ~reg;

    if (h < 16 || memcmp(hdr, "ABU1", 4) != 0)
        die(2, "error: bad header");
    uint32_t version = hdr[4] | hdr[5] << 8 | hdr[6] << 16 | (uint32_t)hdr[7] << 24;
    uint32_t length  = hdr[8] | hdr[9] << 8 | hdr[10] << 16 | (uint32_t)hdr[11] << 24;
    uint32_t hcrc    = hdr[12] | hdr[13] << 8 | hdr[14] << 16 | (uint32_t)hdr[15] << 24;
    if (length == 0 || length > PAYLOAD_LIMIT || total != 16ULL + length)
        die(2, "error: bad length");
    if (crc != hcrc)
        die(2, "error: bad crc");

    int s = c->active, o = !s;
    if (strcmp(c->slot[s].state, "good") != 0)
        die(4, "error: slot %c not confirmed", NAME(s));
    if (version <= c->slot[s].version)
        die(4, "error: version %lu is not newer than %lu",
            (unsigned long)version, c->slot[s].version);

    /* pass 2: copy the payload into the inactive slot */
    int out = open(SLOT_IMG[o], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int ok = out >= 0 && lseek(in, 16, SEEK_SET) == 16;
    uint32_t left = length;
    while (ok && left) {
        size_t want = left < sizeof buf ? left : sizeof buf;
        ssize_t r = read_full(in, buf, want);
        if (r <= 0 || write_full(out, buf, (size_t)r) != 0)
            ok = 0;
        else
            left -= (uint32_t)r;
    }
    close(in);
    ok = ok && fsync(out) == 0;
    if (out >= 0 && close(out) != 0)
        ok = 0;

    /* read back and verify */
    if (ok) {
        int vf = open(SLOT_IMG[o], O_RDONLY);
        unsigned long long seen = 0;
        reg = 0xFFFFFFFFu;
        ok = vf >= 0;
        while (ok) {
            ssize_t r = read_full(vf, buf, sizeof buf);
            if (r < 0)
                ok = 0;
            else if (r == 0)
                break;
            else {
                reg = crc32_step(reg, buf, (size_t)r);
                seen += (unsigned long long)r;
            }
        }
        if (vf >= 0)
            close(vf);
        ok = ok && seen == length && ~reg == hcrc;
    }
    if (!ok)
        die(5, "error: cannot write slot %c", NAME(o));

    strcpy(c->slot[o].state, "trial");
    c->slot[o].attempts = 3;
    c->slot[o].version = version;
    c->active = o;
    save_ctl(c);
    printf("installed version %lu into slot %c\n", (unsigned long)version, NAME(o));
    return 0;
}

static int do_boot(ctl_t *c)
{
    int s = c->active, o = !s;
    slot_t *cur = &c->slot[s];

    if (strcmp(cur->state, "good") == 0) {
        printf("boot %c\n", NAME(s));
    } else if (strcmp(cur->state, "trial") == 0 && cur->attempts >= 1) {
        cur->attempts -= 1;
        save_ctl(c);
        printf("boot %c (trial, %u left)\n", NAME(s), cur->attempts);
    } else if (strcmp(c->slot[o].state, "good") == 0) {
        strcpy(cur->state, "bad");
        cur->attempts = 0;
        c->active = o;
        save_ctl(c);
        printf("boot %c (fallback from %c)\n", NAME(o), NAME(s));
    } else {
        die(6, "error: no bootable slot");
    }
    return 0;
}

static int do_mark_good(ctl_t *c)
{
    slot_t *cur = &c->slot[c->active];
    char s = NAME(c->active);

    if (strcmp(cur->state, "bad") == 0)
        die(4, "error: slot %c is bad", s);
    if (strcmp(cur->state, "good") == 0) {
        printf("slot %c already good\n", s);
        return 0;
    }
    strcpy(cur->state, "good");
    cur->attempts = 0;
    save_ctl(c);
    printf("slot %c marked good\n", s);
    return 0;
}

int main(int argc, char *argv[])
{
    const char *cmd = argc >= 2 ? argv[1] : "";
    int which = 0;

    if (argc == 3 && !strcmp(cmd, "install"))
        which = 1;
    else if (argc == 2 && !strcmp(cmd, "boot"))
        which = 2;
    else if (argc == 2 && !strcmp(cmd, "mark-good"))
        which = 3;
    if (!which) {
        fprintf(stderr, "usage: abupd install FILE | boot | mark-good\n");
        return 1;
    }

    ctl_t ctl;
    load_ctl(&ctl);

    if (which == 1)
        return do_install(&ctl, argv[2]);
    if (which == 2)
        return do_boot(&ctl);
    return do_mark_good(&ctl);
}
