/* defect: C2 is taken as the unsigned register byte (no sign extension from 8 bits).
 * breaks: "| `0x44` | `C2`, signed 8-bit (two's complement) |"
 * must_fail: scenario_room_conditions, scenario_hot_high_pressure, scenario_negative_temperature
 */
/*
 * bpsdump - compensated temperature and pressure from a Vireo BPS-20
 * register dump.  Integer arithmetic only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <inttypes.h>

#define NUM_REGS     256
#define CHIP_ID_REG  0x3F
#define CHIP_ID      0x6B
#define MAX_PER_LINE 16

static int regs[NUM_REGS];          /* -1 = unknown, else 0..255 */

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int hexbyte(const char *s)
{
    int h = hexval((unsigned char)s[0]);
    if (h < 0) return -1;
    int l = hexval((unsigned char)s[1]);
    if (l < 0) return -1;
    return (h << 4) | l;
}

/* Parse one data line (no newline).  Returns 0 on success, -1 on error. */
static int parse_line(const char *s, size_t len)
{
    if (len < 3)
        return -1;
    int addr = hexbyte(s);
    if (addr < 0 || s[2] != ':')
        return -1;

    size_t pos = 3;
    int count = 0;
    while (pos < len) {
        if (len - pos < 3 || s[pos] != ' ')
            return -1;
        int v = hexbyte(s + pos + 1);
        if (v < 0)
            return -1;
        if (count >= MAX_PER_LINE || addr + count >= NUM_REGS)
            return -1;
        regs[addr + count] = v;
        count++;
        pos += 3;
    }
    return count >= 1 ? 0 : -1;
}

static int64_t u16le(int lo_reg)
{
    return (int64_t)(regs[lo_reg] | (regs[lo_reg + 1] << 8));
}

static int64_t s16le(int lo_reg)
{
    return (int64_t)(int16_t)(uint16_t)(regs[lo_reg] | (regs[lo_reg + 1] << 8));
}

static int64_t s8(int reg)
{
    return (int64_t)(int8_t)(uint8_t)regs[reg];
}

static int64_t raw20(int first)
{
    return ((int64_t)regs[first] << 12) | ((int64_t)regs[first + 1] << 4) |
           ((int64_t)regs[first + 2] >> 4);
}

/* Print v/100 with exactly two decimals, truncated, sign preserved. */
static void print_centi(const char *label, int64_t v, const char *unit)
{
    const char *sign = "";
    uint64_t mag;
    if (v < 0) {
        sign = "-";
        mag = (uint64_t)0 - (uint64_t)v;
    } else {
        mag = (uint64_t)v;
    }
    printf("%s: %s%" PRIu64 ".%02" PRIu64 " %s\n", label, sign, mag / 100,
           mag % 100, unit);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s <dumpfile>\n", argc > 0 ? argv[0] : "bpsdump");
        return 1;
    }

    FILE *fp = fopen(argv[1], "r");
    if (fp == NULL) {
        fprintf(stderr, "error: cannot open %s\n", argv[1]);
        return 1;
    }

    for (int i = 0; i < NUM_REGS; i++)
        regs[i] = -1;

    char line[256];
    unsigned long lineno = 0;
    while (fgets(line, sizeof line, fp) != NULL) {
        lineno++;
        size_t len = strlen(line);
        if (len > 0 && line[len - 1] == '\n') {
            line[--len] = '\0';
        } else if (!feof(fp)) {
            fprintf(stderr, "error: line %lu: too long\n", lineno);
            fclose(fp);
            return 1;
        }
        if (len == 0 || line[0] == '#')
            continue;
        if (parse_line(line, len) != 0) {
            fprintf(stderr, "error: line %lu: bad format\n", lineno);
            fclose(fp);
            return 1;
        }
    }
    if (ferror(fp)) {
        fprintf(stderr, "error: cannot read %s\n", argv[1]);
        fclose(fp);
        return 1;
    }
    fclose(fp);

    if (regs[CHIP_ID_REG] != CHIP_ID) {
        fprintf(stderr, "error: bad chip id\n");
        return 1;
    }

    for (int r = 0x40; r <= 0x55; r++) {
        if (r == 0x45 || r == 0x4F)
            continue;                   /* reserved / unused */
        if (regs[r] < 0) {
            fprintf(stderr, "error: missing register 0x%02X\n", r);
            return 1;
        }
    }

    int64_t C0 = u16le(0x40);
    int64_t C1 = s16le(0x42);
    int64_t C2 = regs[0x44];
    int64_t C3 = u16le(0x46);
    int64_t C4 = s16le(0x48);
    int64_t C5 = s16le(0x4A);
    int64_t C6 = s16le(0x4C);
    int64_t C7 = s8(0x4E);
    int64_t UP = raw20(0x50);
    int64_t UT = raw20(0x53);

    int64_t d      = UT - C0 * 16;
    int64_t t_lin  = (d * C1) >> 14;
    int64_t t_q    = ((d >> 5) * (d >> 5)) >> 12;
    int64_t t_fine = t_lin + ((t_q * C2) >> 6);
    int64_t T      = (t_fine * 25) / 1024;

    int64_t dt     = t_fine - 102400;
    int64_t sens   = C3 * 32 + ((C5 * dt) >> 10);
    int64_t off    = C4 * 64 + ((C6 * dt) >> 8);
    int64_t x      = UP - 524288;
    int64_t p_lin  = ((x * sens) >> 20) + off;
    int64_t p_nl   = (((x >> 4) * (x >> 4)) >> 16) * C7;
    int64_t P      = (p_lin + p_nl + 8) >> 4;

    print_centi("temperature", T, "C");
    print_centi("pressure", P, "hPa");
    return 0;
}
