/* defect: the minus sign is lost for negative values between -0.99 and -0.01 (whole part 0), e.g.
 * T = -7 prints 0.07.
 * breaks: "`T` = -7 prints `temperature: -0.07 C`"
 * must_fail: scenario_just_below_zero
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <ctype.h>

static uint8_t reg_val[256];
static bool    reg_known[256];

static void die(const char *msg, const char *arg)
{
    if (arg)
        fprintf(stderr, "error: %s: %s\n", msg, arg);
    else
        fprintf(stderr, "error: %s\n", msg);
    exit(1);
}

static bool read_file(const char *path, char **out, size_t *out_len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    if (!buf) { fclose(f); return false; }
    for (;;) {
        if (len == cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) { free(buf); fclose(f); return false; }
            buf = nb;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0) break;
    }
    bool ok = !ferror(f);
    fclose(f);
    if (!ok) { free(buf); return false; }
    *out = buf;
    *out_len = len;
    return true;
}

static int xdigit(char c)
{
    if (!isxdigit((unsigned char)c)) return -1;
    return isdigit((unsigned char)c) ? c - '0' : (tolower((unsigned char)c) - 'a' + 10);
}

static int two_hex(const char *p, const char *end)
{
    if (end - p < 2) return -1;
    int a = xdigit(p[0]), b = xdigit(p[1]);
    return (a < 0 || b < 0) ? -1 : a * 16 + b;
}

/* Parses the line [p, end); returns false if malformed. */
static bool parse_line(const char *p, const char *end)
{
    if (p == end || *p == '#') return true;
    int addr = two_hex(p, end);
    if (addr < 0) return false;
    p += 2;
    if (p == end || *p != ':') return false;
    p++;
    int n = 0;
    while (p < end) {
        if (*p != ' ') return false;
        int v = two_hex(p + 1, end);
        if (v < 0) return false;
        p += 3;
        if (++n > 16 || addr + n - 1 > 0xFF) return false;
        reg_val[addr + n - 1] = (uint8_t)v;
        reg_known[addr + n - 1] = true;
    }
    return n > 0;
}

/* little-endian 16-bit word starting at register r */
static uint16_t le16(int r)
{
    return (uint16_t)(reg_val[r] | (unsigned)reg_val[r + 1] << 8);
}

static int64_t packed20(int r)
{
    uint32_t v = ((uint32_t)reg_val[r] << 12) | ((uint32_t)reg_val[r + 1] << 4)
               | (uint32_t)(reg_val[r + 2] >> 4);
    return (int64_t)v;
}

static void show(const char *what, int64_t v, const char *unit)
{
    long long whole = v / 100;          /* truncates toward zero */
    long long frac = v % 100;           /* same sign as v */
    if (frac < 0) frac = -frac;
    printf("%s: %lld.%02lld %s\n", what, whole, frac, unit);
}

int main(int argc, char **argv)
{
    static const uint8_t needed[] = {
        0x40, 0x41, 0x42, 0x43, 0x44,
        0x46, 0x47, 0x48, 0x49, 0x4A, 0x4B, 0x4C, 0x4D, 0x4E,
        0x50, 0x51, 0x52, 0x53, 0x54, 0x55,
    };
    char *text;
    size_t len;

    if (argc != 2) {
        fprintf(stderr, "usage: bpsdump <dumpfile>\n");
        return 1;
    }
    if (!read_file(argv[1], &text, &len))
        die("cannot read file", argv[1]);

    const char *p = text, *end = text + len;
    int lineno = 0;
    while (p < end) {
        const char *nl = p;
        while (nl < end && *nl != '\n') nl++;
        lineno++;
        if (!parse_line(p, nl)) {
            fprintf(stderr, "error: malformed line %d\n", lineno);
            free(text);
            return 1;
        }
        p = (nl < end) ? nl + 1 : end;
    }
    free(text);

    if (!reg_known[0x3F] || reg_val[0x3F] != 0x6B)
        die("bad chip id", NULL);

    for (size_t i = 0; i < sizeof needed; i++) {
        if (!reg_known[needed[i]]) {
            fprintf(stderr, "error: missing register 0x%02X\n", needed[i]);
            return 1;
        }
    }

    const int64_t C0 = le16(0x40);
    const int64_t C1 = (int16_t)le16(0x42);
    const int64_t C2 = (int8_t)reg_val[0x44];
    const int64_t C3 = le16(0x46);
    const int64_t C4 = (int16_t)le16(0x48);
    const int64_t C5 = (int16_t)le16(0x4A);
    const int64_t C6 = (int16_t)le16(0x4C);
    const int64_t C7 = (int8_t)reg_val[0x4E];
    const int64_t UP = packed20(0x50);
    const int64_t UT = packed20(0x53);

    /* temperature */
    int64_t d = UT - C0 * 16;
    int64_t t_fine = ((d * C1) >> 14)
                   + (((((d >> 5) * (d >> 5)) >> 12) * C2) >> 6);
    int64_t T = (t_fine * 25) / 1024;

    /* pressure */
    int64_t dt = t_fine - 102400;
    int64_t sens = C3 * 32 + ((C5 * dt) >> 10);
    int64_t off = C4 * 64 + ((C6 * dt) >> 8);
    int64_t x = UP - 524288;
    int64_t xs = x >> 4;
    int64_t P = ((((x * sens) >> 20) + off) + ((xs * xs) >> 16) * C7 + 8) >> 4;

    show("temperature", T, "C");
    show("pressure", P, "hPa");
    return 0;
}
