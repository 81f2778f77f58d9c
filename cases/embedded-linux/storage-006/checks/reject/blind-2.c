/* defect: the temporary file is opened without O_TRUNC, so a longer stale <FILE>.tmp leaves its old trailing bytes
 *         after the new records and they end up in the compacted journal
 * breaks: "write the complete new journal to the temporary file `<FILE>.tmp` in the same directory (created, or truncated if a stale one is left from an earlier power cut)"
 * must_fail: scenario_compact_stale_tmp
 */
/* jrnl - settings journal maintenance: recover a torn tail, compact */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define MAX_PAYLOAD 1024u
#define REC_OVERHEAD 7u
#define TYPE_SET 1
#define TYPE_DEL 2

enum scan_result { SCAN_CLEAN, SCAN_TORN, SCAN_CORRUPT };

static uint32_t crc_table[256];

static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
        crc_table[i] = c;
    }
}

static uint32_t crc32_buf(const uint8_t *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    while (n--)
        c = crc_table[(c ^ *p++) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

static uint16_t get_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t get_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

static void put_le16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* Live-setting table filled while scanning (last valid record per key). */
struct slot {
    int live;
    const uint8_t *val;
    size_t vlen;
};

static struct slot slots[256];

/* Scans buf[0..size); *end receives the offset where the scan stopped,
 * *nrec the number of valid records before it. */
static enum scan_result scan(const uint8_t *buf, size_t size, size_t *end,
                             size_t *nrec)
{
    size_t p = 0, n = 0;

    memset(slots, 0, sizeof slots);
    for (;;) {
        size_t r = size - p;
        enum scan_result res;

        if (r == 0) {
            res = SCAN_CLEAN;
            goto out;
        }
        if (r < 3) {
            res = SCAN_TORN;
            goto out;
        }
        size_t len = get_le16(buf + p);
        uint8_t type = buf[p + 2];
        if (len == 0 || len > MAX_PAYLOAD) {
            res = SCAN_CORRUPT;
            goto out;
        }
        if (r < REC_OVERHEAD + len) {
            res = SCAN_TORN;
            goto out;
        }
        if (crc32_buf(buf + p, 3 + len) != get_le32(buf + p + 3 + len)) {
            res = (r == REC_OVERHEAD + len) ? SCAN_TORN : SCAN_CORRUPT;
            goto out;
        }
        if ((type != TYPE_SET && type != TYPE_DEL) ||
            (type == TYPE_DEL && len != 1)) {
            res = SCAN_CORRUPT;
            goto out;
        }

        uint8_t key = buf[p + 3];
        if (type == TYPE_SET) {
            slots[key].live = 1;
            slots[key].val = buf + p + 4;
            slots[key].vlen = len - 1;
        } else {
            slots[key].live = 0;
        }
        n++;
        p += REC_OVERHEAD + len;
        continue;
out:
        *end = p;
        *nrec = n;
        return res;
    }
}

static int read_file(const char *path, uint8_t **out, size_t *size)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;

    size_t cap = 65536, len = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        close(fd);
        return -1;
    }
    for (;;) {
        if (len == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                close(fd);
                return -1;
            }
            buf = nb;
            cap *= 2;
        }
        ssize_t k = read(fd, buf + len, cap - len);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            free(buf);
            close(fd);
            return -1;
        }
        if (k == 0)
            break;
        len += (size_t)k;
    }
    close(fd);
    *out = buf;
    *size = len;
    return 0;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static int fail_write(const char *file)
{
    fprintf(stderr, "error: cannot write %s\n", file);
    return 4;
}

static int do_recover(const char *file, size_t size, size_t end, size_t n,
                      enum scan_result res)
{
    if (res == SCAN_CLEAN) {
        printf("clean: %zu records, %zu bytes\n", n, size);
        return 0;
    }

    int fd = open(file, O_WRONLY);
    if (fd < 0)
        return fail_write(file);
    if (ftruncate(fd, (off_t)end) != 0 || fsync(fd) != 0) {
        close(fd);
        return fail_write(file);
    }
    if (close(fd) != 0)
        return fail_write(file);

    printf("torn tail at offset %zu: dropped %zu bytes\n", end, size - end);
    printf("recovered: %zu records, %zu bytes\n", n, end);
    return 0;
}

static int do_compact(const char *file, size_t size, size_t end, size_t n,
                      enum scan_result res)
{
    if (res == SCAN_TORN)
        printf("torn tail at offset %zu: dropped %zu bytes\n", end, size - end);

    /* build the new journal in memory */
    size_t total = 0, m = 0;
    for (int k = 0; k < 256; k++)
        if (slots[k].live)
            total += REC_OVERHEAD + 1 + slots[k].vlen;

    uint8_t *nj = malloc(total ? total : 1);
    if (!nj)
        return fail_write(file);
    size_t q = 0;
    for (int k = 0; k < 256; k++) {
        if (!slots[k].live)
            continue;
        size_t len = 1 + slots[k].vlen;
        put_le16(nj + q, (uint16_t)len);
        nj[q + 2] = TYPE_SET;
        nj[q + 3] = (uint8_t)k;
        if (slots[k].vlen)
            memcpy(nj + q + 4, slots[k].val, slots[k].vlen);
        put_le32(nj + q + 3 + len, crc32_buf(nj + q, 3 + len));
        q += REC_OVERHEAD + len;
        m++;
    }

    char *tmp;
    if (asprintf(&tmp, "%s.tmp", file) < 0) {
        free(nj);
        return fail_write(file);
    }

    int fd = open(tmp, O_WRONLY | O_CREAT, 0644);
    if (fd < 0) {
        free(nj);
        free(tmp);
        return fail_write(file);
    }
    if (write_all(fd, nj, total) != 0 || fsync(fd) != 0) {
        close(fd);
        unlink(tmp);
        free(nj);
        free(tmp);
        return fail_write(file);
    }
    free(nj);
    if (close(fd) != 0) {
        unlink(tmp);
        free(tmp);
        return fail_write(file);
    }
    if (rename(tmp, file) != 0) {
        unlink(tmp);
        free(tmp);
        return fail_write(file);
    }
    free(tmp);

    int dfd = open(".", O_RDONLY | O_DIRECTORY);
    if (dfd < 0)
        return fail_write(file);
    if (fsync(dfd) != 0) {
        close(dfd);
        return fail_write(file);
    }
    close(dfd);

    printf("compacted: %zu records -> %zu records, %zu bytes\n", n, m, total);
    return 0;
}

int main(int argc, char **argv)
{
    int recover;

    if (argc != 3)
        goto usage;
    if (strcmp(argv[1], "recover") == 0)
        recover = 1;
    else if (strcmp(argv[1], "compact") == 0)
        recover = 0;
    else
        goto usage;

    const char *file = argv[2];
    uint8_t *buf;
    size_t size;
    if (read_file(file, &buf, &size) != 0) {
        fprintf(stderr, "error: cannot read %s\n", file);
        return 2;
    }

    crc_init();
    size_t end, n;
    enum scan_result res = scan(buf, size, &end, &n);
    if (res == SCAN_CORRUPT) {
        fprintf(stderr, "error: corrupt record at offset %zu\n", end);
        free(buf);
        return 3;
    }

    int rc = recover ? do_recover(file, size, end, n, res)
                     : do_compact(file, size, end, n, res);
    free(buf);
    return rc;

usage:
    fprintf(stderr, "usage: jrnl recover FILE | jrnl compact FILE\n");
    return 1;
}
