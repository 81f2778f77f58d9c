#include <stdio.h>
#include <string.h>
#include <stdbool.h>
#include <stdint.h>

/* Value spans are kept as (start, length) into the blob. */
typedef struct { long start; long len; bool seen; } span_t;

static unsigned char blob[4097];

static int report(long off, const char *reason)
{
    fprintf(stderr, "provparse: error at offset %ld: %s\n", off, reason);
    return 1;
}

static int report_tag(long off, const char *reason, int tag)
{
    fprintf(stderr, "provparse: error at offset %ld: %s 0x%02x\n", off, reason, tag);
    return 1;
}

static bool ascii_printable(long start, long len)
{
    for (long i = start; i < start + len; i++)
        if (blob[i] < 0x20 || blob[i] > 0x7e)
            return false;
    return true;
}

int main(int argc, char *argv[])
{
    if (argc != 2) {
        fputs("usage: provparse FILE\n", stderr);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        fprintf(stderr, "provparse: cannot read %s\n", argv[1]);
        return 2;
    }
    long size = 0;
    for (;;) {
        size_t got = fread(blob + size, 1, sizeof blob - (size_t)size, f);
        if (got == 0)
            break;
        size += (long)got;
        if (size == (long)sizeof blob)
            break;
    }
    bool rd_err = ferror(f) != 0;
    fclose(f);
    if (rd_err) {
        fprintf(stderr, "provparse: cannot read %s\n", argv[1]);
        return 2;
    }
    if (size > 4096) {
        fputs("provparse: blob too large\n", stderr);
        return 1;
    }

    /* top-level and Wi-Fi container tag tables, indexed by tag */
    span_t top[256], wifi[256];
    memset(top, 0, sizeof top);
    memset(wifi, 0, sizeof wifi);

    bool in_wifi = false;
    long wifi_end = 0;
    long pos = 0;

    for (;;) {
        long end = in_wifi ? wifi_end : size;

        if (pos == end) {
            if (in_wifi) {
                /* end of the container: its required tags */
                if (!wifi[0x11].seen) return report_tag(end, "missing tag", 0x11);
                if (!wifi[0x12].seen) return report_tag(end, "missing tag", 0x12);
                in_wifi = false;
                continue;
            }
            if (!top[0x01].seen) return report_tag(end, "missing tag", 0x01);
            if (!top[0x02].seen) return report_tag(end, "missing tag", 0x02);
            break;
        }

        long at = pos;
        int tag = blob[pos];
        long remaining = end - pos;   /* bytes from the tag to the level end */

        if (remaining < 2)
            return report(at, "truncated header");
        int first = blob[pos + 1];
        if (first == 0x82 && remaining < 4)
            return report(at, "truncated header");

        long len, hdr;
        if (first <= 0x7f) {
            len = first;
            hdr = 2;
        } else if (first == 0x82) {
            len = (long)blob[pos + 2] * 256 + blob[pos + 3];
            hdr = 4;
            if (len <= 0x7f)
                return report(at, "bad length encoding");
        } else {
            return report(at, "bad length encoding");
        }

        long vstart = pos + hdr;
        if (len > end - vstart)
            return report(at, "length exceeds container");

        if (in_wifi && tag == 0x10)
            return report(at, "nesting too deep");

        bool vendor = tag >= 0xe0;
        bool known;
        if (in_wifi)
            known = vendor || tag == 0x11 || tag == 0x12;
        else
            known = vendor || tag == 0x01 || tag == 0x02 || tag == 0x03 ||
                    tag == 0x10 || tag == 0x20;
        if (!known)
            return report_tag(at, "unknown tag", tag);

        span_t *tab = in_wifi ? wifi : top;
        if (!vendor && tab[tag].seen)
            return report_tag(at, "duplicate tag", tag);
        tab[tag].seen = true;
        tab[tag].start = vstart;
        tab[tag].len = len;

        bool good = true;
        switch (vendor ? -1 : tag) {
        case 0x01: good = len >= 1 && len <= 32 && ascii_printable(vstart, len); break;
        case 0x02: good = len == 4; break;
        case 0x03: good = len == 1; break;
        case 0x11: good = len >= 1 && len <= 32; break;
        case 0x12: good = len >= 8 && len <= 63 && ascii_printable(vstart, len); break;
        case 0x20: good = len >= 1 && len <= 2048; break;
        case 0x10:
            /* descend: the container's elements are decoded now */
            in_wifi = true;
            wifi_end = vstart + len;
            pos = vstart;
            continue;
        default: break;
        }
        if (!good)
            return report_tag(at, "bad value for tag", tag);
        pos = vstart + len;
    }

    printf("device_id=");
    fwrite(blob + top[0x01].start, 1, (size_t)top[0x01].len, stdout);
    putchar('\n');

    const unsigned char *s = blob + top[0x02].start;
    unsigned long serial = ((unsigned long)s[0] << 24) | ((unsigned long)s[1] << 16) |
                           ((unsigned long)s[2] << 8) | s[3];
    printf("serial=%lu\n", serial);

    if (top[0x03].seen)
        printf("hw_rev=%d\n", blob[top[0x03].start]);

    if (top[0x10].seen) {
        fputs("wifi.ssid=", stdout);
        for (long i = 0; i < wifi[0x11].len; i++)
            printf("%02x", blob[wifi[0x11].start + i]);
        printf("\nwifi.passphrase=%ld bytes\n", wifi[0x12].len);
    }

    if (top[0x20].seen) {
        const span_t *c = &top[0x20];
        printf("cert=%ld bytes %02x..%02x\n", c->len, blob[c->start],
               blob[c->start + c->len - 1]);
    }
    return 0;
}
