/* defect: after renaming the temporary file over bootctl the directory is never
 * opened and fsync()ed, so the rename itself is not made durable.
 * breaks: "it writes the complete new contents to a temporary file in the same directory, flushes that file to storage with `fsync()`, renames it over `bootctl`, then opens the directory and `fsync()`s it so that the rename itself is durable."
 * must_fail: directory_fsynced_after_rename
 */
/*
 * abupd - A/B firmware update agent.
 *
 *   abupd install FILE   write a verified update into the inactive slot
 *   abupd boot           the bootloader's boot-time decision
 *   abupd mark-good      confirm the running (active) firmware
 *
 * Slots are slot_a.img / slot_b.img, the boot control file is bootctl, all
 * in the working directory.  bootctl is only ever replaced atomically.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CTL_FILE        "bootctl"
#define CTL_TMP         "bootctl.tmp"
#define HDR_SIZE        16u
#define MAX_PAYLOAD     16777216u
#define TRIAL_ATTEMPTS  3u

enum { EXIT_OK = 0, EXIT_USAGE = 1, EXIT_IMAGE = 2, EXIT_CTL = 3,
       EXIT_POLICY = 4, EXIT_IO = 5, EXIT_NOBOOT = 6 };

enum slot_state { ST_GOOD, ST_TRIAL, ST_BAD };
static const char *const state_names[] = { "good", "trial", "bad" };
static const char slot_letter[2] = { 'A', 'B' };
static const char *const slot_file[2] = { "slot_a.img", "slot_b.img" };

struct slot {
    enum slot_state state;
    unsigned attempts;
    uint32_t version;
};

struct bootctl {
    int active;                 /* 0 = A, 1 = B */
    struct slot slot[2];
};

/* ------------------------------------------------------------------ CRC */

static uint32_t crc32_update(uint32_t crc, const unsigned char *p, size_t n)
{
    static uint32_t table[256];
    static int ready;

    if (!ready) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++)
                c = (c >> 1) ^ ((c & 1u) ? 0xEDB88320u : 0u);
            table[i] = c;
        }
        ready = 1;
    }
    crc = ~crc;
    while (n--)
        crc = table[(crc ^ *p++) & 0xFFu] ^ (crc >> 8);
    return ~crc;
}

static uint32_t rd_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 |
           (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* --------------------------------------------------- boot control file */

/* cursor helpers: each returns 0 on success, -1 on mismatch */
static int expect_str(const char **p, const char *end, const char *s)
{
    size_t n = strlen(s);
    if ((size_t)(end - *p) < n || memcmp(*p, s, n) != 0)
        return -1;
    *p += n;
    return 0;
}

static int expect_uint(const char **p, const char *end, uint32_t max,
                       uint32_t *out)
{
    uint64_t v = 0;
    const char *q = *p;

    if (q >= end || *q < '0' || *q > '9')
        return -1;
    while (q < end && *q >= '0' && *q <= '9') {
        v = v * 10 + (uint64_t)(*q - '0');
        if (v > max)
            return -1;
        q++;
    }
    *out = (uint32_t)v;
    *p = q;
    return 0;
}

static int parse_slot_line(const char **p, const char *end, char letter,
                           struct slot *s)
{
    char head[3] = { letter, ' ', '\0' };
    uint32_t att, ver;
    int i;

    if (expect_str(p, end, head) != 0)
        return -1;
    for (i = 0; i < 3; i++) {
        char word[8];
        snprintf(word, sizeof word, "%s ", state_names[i]);
        if (expect_str(p, end, word) == 0)
            break;
    }
    if (i == 3)
        return -1;
    if (expect_uint(p, end, TRIAL_ATTEMPTS, &att) != 0 ||
        expect_str(p, end, " ") != 0 ||
        expect_uint(p, end, UINT32_MAX, &ver) != 0 ||
        expect_str(p, end, "\n") != 0)
        return -1;
    if (i != ST_TRIAL && att != 0)
        return -1;            /* good and bad slots always have 0 attempts */
    s->state = (enum slot_state)i;
    s->attempts = att;
    s->version = ver;
    return 0;
}

static int ctl_load(struct bootctl *c)
{
    char buf[512];
    size_t n;
    FILE *f = fopen(CTL_FILE, "r");

    if (!f)
        return -1;
    n = fread(buf, 1, sizeof buf, f);
    if (ferror(f) || n == sizeof buf) {
        fclose(f);
        return -1;
    }
    fclose(f);

    const char *p = buf, *end = buf + n;
    if (expect_str(&p, end, "active ") != 0 || p >= end)
        return -1;
    if (*p == 'A')
        c->active = 0;
    else if (*p == 'B')
        c->active = 1;
    else
        return -1;
    p++;
    if (expect_str(&p, end, "\n") != 0 ||
        parse_slot_line(&p, end, 'A', &c->slot[0]) != 0 ||
        parse_slot_line(&p, end, 'B', &c->slot[1]) != 0 ||
        p != end)
        return -1;
    return 0;
}

static int ctl_save(const struct bootctl *c)
{
    FILE *f = fopen(CTL_TMP, "w");
    if (!f)
        return -1;

    int ok = fprintf(f, "active %c\n", slot_letter[c->active]) > 0;
    for (int i = 0; i < 2 && ok; i++)
        ok = fprintf(f, "%c %s %u %lu\n", slot_letter[i],
                     state_names[c->slot[i].state], c->slot[i].attempts,
                     (unsigned long)c->slot[i].version) > 0;
    if (ok && fflush(f) != 0)
        ok = 0;
    if (ok && fsync(fileno(f)) != 0)
        ok = 0;
    if (fclose(f) != 0)
        ok = 0;
    if (ok && rename(CTL_TMP, CTL_FILE) != 0)
        ok = 0;
    if (!ok) {
        unlink(CTL_TMP);
        return -1;
    }
    return 0;
}

static int save_or_die(const struct bootctl *c)
{
    if (ctl_save(c) != 0) {
        fputs("error: cannot save control file\n", stderr);
        exit(EXIT_IO);
    }
    return 0;
}

/* --------------------------------------------------------------- install */

static int write_all(int fd, const unsigned char *p, size_t n)
{
    while (n > 0) {
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

/* write payload into path, flush, read back; 0 if read-back CRC matches */
static int write_slot(const char *path, const unsigned char *data,
                      size_t len, uint32_t want_crc)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return -1;
    if (write_all(fd, data, len) != 0 || fsync(fd) != 0) {
        close(fd);
        return -1;
    }
    if (close(fd) != 0)
        return -1;

    fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    unsigned char buf[65536];
    uint32_t crc = 0;
    size_t total = 0;
    for (;;) {
        ssize_t r = read(fd, buf, sizeof buf);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            close(fd);
            return -1;
        }
        if (r == 0)
            break;
        crc = crc32_update(crc, buf, (size_t)r);
        total += (size_t)r;
    }
    close(fd);
    return (total == len && crc == want_crc) ? 0 : -1;
}

static int cmd_install(struct bootctl *c, const char *file)
{
    const size_t cap = HDR_SIZE + MAX_PAYLOAD + 1;
    unsigned char *img = malloc(cap);
    if (!img) {
        fputs("error: cannot read update\n", stderr);
        return EXIT_IMAGE;
    }

    FILE *f = fopen(file, "rb");
    size_t size = 0;
    int read_ok = 0;
    if (f) {
        size = fread(img, 1, cap, f);
        read_ok = !ferror(f);
        fclose(f);
    }
    if (!read_ok) {
        free(img);
        fputs("error: cannot read update\n", stderr);
        return EXIT_IMAGE;
    }

    if (size < HDR_SIZE || memcmp(img, "ABU1", 4) != 0) {
        free(img);
        fputs("error: bad header\n", stderr);
        return EXIT_IMAGE;
    }
    uint32_t version = rd_le32(img + 4);
    uint32_t length = rd_le32(img + 8);
    uint32_t crc = rd_le32(img + 12);

    if (length == 0 || length > MAX_PAYLOAD || size != HDR_SIZE + (size_t)length) {
        free(img);
        fputs("error: bad length\n", stderr);
        return EXIT_IMAGE;
    }
    if (crc32_update(0, img + HDR_SIZE, length) != crc) {
        free(img);
        fputs("error: bad crc\n", stderr);
        return EXIT_IMAGE;
    }

    int act = c->active, other = 1 - c->active;
    if (c->slot[act].state != ST_GOOD) {
        free(img);
        fprintf(stderr, "error: slot %c not confirmed\n", slot_letter[act]);
        return EXIT_POLICY;
    }
    if (version <= c->slot[act].version) {
        free(img);
        fprintf(stderr, "error: version %lu is not newer than %lu\n",
                (unsigned long)version, (unsigned long)c->slot[act].version);
        return EXIT_POLICY;
    }

    int rc = write_slot(slot_file[other], img + HDR_SIZE, length, crc);
    free(img);
    if (rc != 0) {
        fprintf(stderr, "error: cannot write slot %c\n", slot_letter[other]);
        return EXIT_IO;
    }

    c->slot[other].state = ST_TRIAL;
    c->slot[other].attempts = TRIAL_ATTEMPTS;
    c->slot[other].version = version;
    c->active = other;
    save_or_die(c);
    printf("installed version %lu into slot %c\n", (unsigned long)version,
           slot_letter[other]);
    return EXIT_OK;
}

/* ------------------------------------------------------------------ boot */

static int cmd_boot(struct bootctl *c)
{
    int s = c->active, o = 1 - c->active;
    struct slot *cur = &c->slot[s];

    if (cur->state == ST_GOOD) {
        printf("boot %c\n", slot_letter[s]);
        return EXIT_OK;
    }
    if (cur->state == ST_TRIAL && cur->attempts > 0) {
        cur->attempts--;
        save_or_die(c);
        printf("boot %c (trial, %u left)\n", slot_letter[s], cur->attempts);
        return EXIT_OK;
    }
    /* trial with no attempts left, or bad */
    if (c->slot[o].state != ST_GOOD) {
        fputs("error: no bootable slot\n", stderr);
        return EXIT_NOBOOT;
    }
    cur->state = ST_BAD;
    cur->attempts = 0;
    c->active = o;
    save_or_die(c);
    printf("boot %c (fallback from %c)\n", slot_letter[o], slot_letter[s]);
    return EXIT_OK;
}

/* ------------------------------------------------------------- mark-good */

static int cmd_mark_good(struct bootctl *c)
{
    struct slot *cur = &c->slot[c->active];
    char s = slot_letter[c->active];

    switch (cur->state) {
    case ST_TRIAL:
        cur->state = ST_GOOD;
        cur->attempts = 0;
        save_or_die(c);
        printf("slot %c marked good\n", s);
        return EXIT_OK;
    case ST_GOOD:
        printf("slot %c already good\n", s);
        return EXIT_OK;
    default:
        fprintf(stderr, "error: slot %c is bad\n", s);
        return EXIT_POLICY;
    }
}

/* ------------------------------------------------------------------ main */

int main(int argc, char **argv)
{
    enum { C_INSTALL, C_BOOT, C_MARK } cmd;

    if (argc == 3 && strcmp(argv[1], "install") == 0)
        cmd = C_INSTALL;
    else if (argc == 2 && strcmp(argv[1], "boot") == 0)
        cmd = C_BOOT;
    else if (argc == 2 && strcmp(argv[1], "mark-good") == 0)
        cmd = C_MARK;
    else {
        fputs("usage: abupd install FILE | boot | mark-good\n", stderr);
        return EXIT_USAGE;
    }

    struct bootctl ctl;
    if (ctl_load(&ctl) != 0) {
        fputs("error: bad control file\n", stderr);
        return EXIT_CTL;
    }

    switch (cmd) {
    case C_INSTALL:
        return cmd_install(&ctl, argv[2]);
    case C_BOOT:
        return cmd_boot(&ctl);
    default:
        return cmd_mark_good(&ctl);
    }
}
