/* defect: after rename() the directory is never opened and fsync()ed, so the rename is not made durable
 * breaks: "then open the directory and `fsync()` it so that the rename itself is durable."
 * must_fail: directory_fsynced_after_rename
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Journal record: le16 len | u8 type | payload[len] | le32 crc32(len,type,payload)
 */

static unsigned long crc32_update(unsigned long crc, const unsigned char *d, size_t n)
{
    crc = ~crc & 0xFFFFFFFFul;
    for (size_t i = 0; i < n; i++) {
        crc ^= d[i];
        for (int b = 0; b < 8; b++)
            crc = (crc >> 1) ^ (0xEDB88320ul & (0ul - (crc & 1ul)));
    }
    return ~crc & 0xFFFFFFFFul;
}

struct scan {
    int torn;            /* 1 if a torn tail was found */
    int corrupt;         /* 1 if a corrupt record was found */
    long stop;           /* offset where the scan stopped */
    long records;        /* valid records before stop */
    long last[256];      /* offset of the last valid SET per key, -1 if none/deleted */
};

static void scan_journal(const unsigned char *j, long size, struct scan *s)
{
    long p = 0;

    s->torn = s->corrupt = 0;
    s->records = 0;
    for (int k = 0; k < 256; k++)
        s->last[k] = -1;

    while (p < size) {
        long r = size - p;
        if (r < 3) {
            s->torn = 1;
            break;
        }
        long len = j[p] | ((long)j[p + 1] << 8);
        int type = j[p + 2];
        if (len < 1 || len > 1024) {
            s->corrupt = 1;
            break;
        }
        if (r < len + 7) {
            s->torn = 1;
            break;
        }
        const unsigned char *c = j + p + 3 + len;
        unsigned long stored = (unsigned long)c[0] | ((unsigned long)c[1] << 8) |
                               ((unsigned long)c[2] << 16) | ((unsigned long)c[3] << 24);
        if (crc32_update(0, j + p, (size_t)len + 3) != stored) {
            if (r == len + 7)
                s->torn = 1;
            else
                s->corrupt = 1;
            break;
        }
        if (type == 1) {
            s->last[j[p + 3]] = p;
        } else if (type == 2 && len == 1) {
            s->last[j[p + 3]] = -1;
        } else {
            s->corrupt = 1;
            break;
        }
        s->records++;
        p += len + 7;
    }
    s->stop = p;
}

static unsigned char *slurp(const char *name, long *size)
{
    FILE *f = fopen(name, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    unsigned char *b = malloc(cap);
    while (b) {
        n += fread(b + n, 1, cap - n, f);
        if (ferror(f)) {
            free(b);
            b = NULL;
            break;
        }
        if (n < cap)
            break;              /* EOF */
        unsigned char *nb = realloc(b, cap *= 2);
        if (!nb) {
            free(b);
            b = NULL;
        } else {
            b = nb;
        }
    }
    fclose(f);
    *size = (long)n;
    return b;
}

static int cannot_write(const char *name)
{
    fprintf(stderr, "error: cannot write %s\n", name);
    return 4;
}

static int cmd_recover(const char *name, long size, const struct scan *s)
{
    if (!s->torn) {
        printf("clean: %ld records, %ld bytes\n", s->records, size);
        return 0;
    }
    int fd = open(name, O_RDWR);
    if (fd == -1)
        return cannot_write(name);
    int bad = ftruncate(fd, s->stop) == -1 || fsync(fd) == -1;
    if (close(fd) == -1)
        bad = 1;
    if (bad)
        return cannot_write(name);
    printf("torn tail at offset %ld: dropped %ld bytes\n", s->stop, size - s->stop);
    printf("recovered: %ld records, %ld bytes\n", s->records, s->stop);
    return 0;
}

static int write_record(FILE *f, int key, const unsigned char *val, long vlen)
{
    unsigned char hdr[4], tail[4];
    long len = vlen + 1;
    hdr[0] = (unsigned char)(len & 0xFF);
    hdr[1] = (unsigned char)(len >> 8);
    hdr[2] = 1;
    hdr[3] = (unsigned char)key;
    unsigned long crc = crc32_update(0, hdr, 4);
    /* continue the CRC over the value: crc32_update chains like zlib's crc32() */
    crc = crc32_update(crc, val, (size_t)vlen);
    for (int i = 0; i < 4; i++)
        tail[i] = (unsigned char)(crc >> (8 * i));
    if (fwrite(hdr, 1, 4, f) != 4)
        return -1;
    if (vlen > 0 && fwrite(val, 1, (size_t)vlen, f) != (size_t)vlen)
        return -1;
    if (fwrite(tail, 1, 4, f) != 4)
        return -1;
    return 0;
}

static int cmd_compact(const char *name, const unsigned char *j, long size,
                       const struct scan *s)
{
    if (s->torn)
        printf("torn tail at offset %ld: dropped %ld bytes\n", s->stop, size - s->stop);

    size_t nl = strlen(name);
    char *tmp = malloc(nl + 5);
    if (!tmp)
        return cannot_write(name);
    memcpy(tmp, name, nl);
    memcpy(tmp + nl, ".tmp", 5);

    FILE *f = fopen(tmp, "wb");     /* creates or truncates a stale one */
    if (!f) {
        free(tmp);
        return cannot_write(name);
    }

    long written = 0, bytes = 0;
    int err = 0;
    for (int k = 0; k < 256 && !err; k++) {
        long off = s->last[k];
        if (off < 0)
            continue;
        long len = j[off] | ((long)j[off + 1] << 8);
        if (write_record(f, k, j + off + 4, len - 1) != 0)
            err = 1;
        written++;
        bytes += len + 7;
    }
    if (!err && fflush(f) != 0)
        err = 1;
    if (!err && fsync(fileno(f)) != 0)
        err = 1;
    if (fclose(f) != 0)
        err = 1;
    if (!err && rename(tmp, name) != 0)
        err = 1;
    if (err) {
        unlink(tmp);
        free(tmp);
        return cannot_write(name);
    }
    free(tmp);

    printf("compacted: %ld records -> %ld records, %ld bytes\n", s->records, written, bytes);
    return 0;
}

int main(int argc, char *argv[])
{
    if (argc != 3 || (strcmp(argv[1], "recover") != 0 && strcmp(argv[1], "compact") != 0)) {
        fputs("usage: jrnl recover FILE | jrnl compact FILE\n", stderr);
        return 1;
    }
    const char *name = argv[2];

    long size = 0;
    unsigned char *j = slurp(name, &size);
    if (!j) {
        fprintf(stderr, "error: cannot read %s\n", name);
        return 2;
    }

    static struct scan s;
    scan_journal(j, size, &s);
    if (s.corrupt) {
        fprintf(stderr, "error: corrupt record at offset %ld\n", s.stop);
        free(j);
        return 3;
    }

    int rc = argv[1][0] == 'r' ? cmd_recover(name, size, &s)
                               : cmd_compact(name, j, size, &s);
    free(j);
    return rc;
}
