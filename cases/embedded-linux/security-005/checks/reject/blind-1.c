/* defect: the long form is accepted for any length; a 0x82 length below 128 is not rejected as a
 * bad length encoding.
 * breaks: "A first length byte of `0x80`-`0xFF` other than `0x82`, or a long form giving a length below 128, is a bad length encoding;"
 * must_fail: scenario_long_form_below_128
 */
/*
 * provparse - decode the smart-lock provisioning blob (TLV) and print its
 * fields.  Every length is checked against the enclosing level before any
 * byte is read.
 */
#include <stdio.h>
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>

#define MAX_BLOB 4096u

#define TAG_DEVICE_ID 0x01u
#define TAG_SERIAL    0x02u
#define TAG_HW_REV    0x03u
#define TAG_WIFI      0x10u
#define TAG_SSID      0x11u
#define TAG_PASS      0x12u
#define TAG_CERT      0x20u

enum level { LEVEL_TOP, LEVEL_WIFI };

struct field {
    int    present;
    size_t off;             /* offset of the value in the blob */
    size_t len;
};

struct blob {
    const uint8_t *data;
    size_t size;
    struct field device_id, serial, hw_rev, wifi, ssid, pass, cert;
};

static void fail(size_t off, const char *reason, unsigned tag, int with_tag)
{
    if (with_tag)
        fprintf(stderr, "provparse: error at offset %zu: %s 0x%02x\n", off, reason, tag);
    else
        fprintf(stderr, "provparse: error at offset %zu: %s\n", off, reason);
    exit(1);
}

static int is_vendor(unsigned tag)
{
    return tag >= 0xE0u;
}

static int printable(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] < 0x20 || p[i] > 0x7E)
            return 0;
    }
    return 1;
}

static struct field *slot_for(struct blob *b, enum level lv, unsigned tag)
{
    if (lv == LEVEL_TOP) {
        switch (tag) {
        case TAG_DEVICE_ID: return &b->device_id;
        case TAG_SERIAL:    return &b->serial;
        case TAG_HW_REV:    return &b->hw_rev;
        case TAG_WIFI:      return &b->wifi;
        case TAG_CERT:      return &b->cert;
        default:            return NULL;
        }
    }
    switch (tag) {
    case TAG_SSID: return &b->ssid;
    case TAG_PASS: return &b->pass;
    default:       return NULL;
    }
}

static int value_ok(unsigned tag, const uint8_t *v, size_t len)
{
    switch (tag) {
    case TAG_DEVICE_ID: return len >= 1 && len <= 32 && printable(v, len);
    case TAG_SERIAL:    return len == 4;
    case TAG_HW_REV:    return len == 1;
    case TAG_SSID:      return len >= 1 && len <= 32;
    case TAG_PASS:      return len >= 8 && len <= 63 && printable(v, len);
    case TAG_CERT:      return len >= 1 && len <= 2048;
    default:            return 1;
    }
}

static void parse_level(struct blob *b, size_t start, size_t end, enum level lv)
{
    size_t pos = start;

    while (pos < end) {
        size_t tag_off = pos;
        unsigned tag = b->data[pos];
        size_t len;
        size_t val;

        /* 1. header must lie inside the level */
        if (end - pos < 2)
            fail(tag_off, "truncated header", 0, 0);
        unsigned lb = b->data[pos + 1];
        if (lb == 0x82u && end - pos < 4)
            fail(tag_off, "truncated header", 0, 0);

        /* 2. length encoding */
        if (lb < 0x80u) {
            len = lb;
            val = pos + 2;
        } else if (lb == 0x82u) {
            len = ((size_t)b->data[pos + 2] << 8) | b->data[pos + 3];
            val = pos + 4;
        } else {
            fail(tag_off, "bad length encoding", 0, 0);
            return;
        }

        /* 3. value inside the level */
        if (len > end - val)
            fail(tag_off, "length exceeds container", 0, 0);

        /* 4. nesting */
        if (lv == LEVEL_WIFI && tag == TAG_WIFI)
            fail(tag_off, "nesting too deep", 0, 0);

        /* 5. known tag, 6. duplicates */
        if (!is_vendor(tag)) {
            struct field *f = slot_for(b, lv, tag);
            if (f == NULL)
                fail(tag_off, "unknown tag", tag, 1);
            if (f->present)
                fail(tag_off, "duplicate tag", tag, 1);
            f->present = 1;
            f->off = val;
            f->len = len;

            /* 7. value rule */
            if (tag == TAG_WIFI) {
                parse_level(b, val, val + len, LEVEL_WIFI);
            } else if (!value_ok(tag, b->data + val, len)) {
                fail(tag_off, "bad value for tag", tag, 1);
            }
        }
        pos = val + len;
    }

    /* required tags of this level, in table order */
    if (lv == LEVEL_TOP) {
        if (!b->device_id.present)
            fail(end, "missing tag", TAG_DEVICE_ID, 1);
        if (!b->serial.present)
            fail(end, "missing tag", TAG_SERIAL, 1);
    } else {
        if (!b->ssid.present)
            fail(end, "missing tag", TAG_SSID, 1);
        if (!b->pass.present)
            fail(end, "missing tag", TAG_PASS, 1);
    }
}

int main(int argc, char **argv)
{
    static uint8_t buf[MAX_BLOB + 1];
    struct blob b = { 0 };

    if (argc != 2) {
        fprintf(stderr, "usage: provparse FILE\n");
        return 2;
    }

    FILE *fp = fopen(argv[1], "rb");
    if (fp == NULL) {
        fprintf(stderr, "provparse: cannot read %s\n", argv[1]);
        return 2;
    }
    size_t n = fread(buf, 1, sizeof buf, fp);
    if (ferror(fp)) {
        fclose(fp);
        fprintf(stderr, "provparse: cannot read %s\n", argv[1]);
        return 2;
    }
    fclose(fp);
    if (n > MAX_BLOB) {
        fprintf(stderr, "provparse: blob too large\n");
        return 1;
    }

    b.data = buf;
    b.size = n;
    parse_level(&b, 0, n, LEVEL_TOP);

    const uint8_t *d = b.data;
    printf("device_id=%.*s\n", (int)b.device_id.len, (const char *)d + b.device_id.off);

    const uint8_t *s = d + b.serial.off;
    uint32_t serial = ((uint32_t)s[0] << 24) | ((uint32_t)s[1] << 16) |
                      ((uint32_t)s[2] << 8) | (uint32_t)s[3];
    printf("serial=%lu\n", (unsigned long)serial);

    if (b.hw_rev.present)
        printf("hw_rev=%u\n", (unsigned)d[b.hw_rev.off]);

    if (b.wifi.present) {
        printf("wifi.ssid=");
        for (size_t i = 0; i < b.ssid.len; i++)
            printf("%02x", (unsigned)d[b.ssid.off + i]);
        printf("\nwifi.passphrase=%zu bytes\n", b.pass.len);
    }

    if (b.cert.present)
        printf("cert=%zu bytes %02x..%02x\n", b.cert.len,
               (unsigned)d[b.cert.off], (unsigned)d[b.cert.off + b.cert.len - 1]);
    return 0;
}
