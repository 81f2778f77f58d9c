/* defect: a broadcast 0x03 read is processed and answered like a request to 0x11 instead of being ignored.
 * breaks: "Broadcast (unit address `0`): a valid `0x06` or `0x10` write is executed and never answered; a broadcast that would give an exception has no effect and is not answered either; a broadcast `0x03` is ignored."
 * must_fail: scenario_broadcast_writes_silent
 */
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>

/* Holding registers: block A (read-only, 0x0000-0x0002) and block B
 * (read/write, 0x0100-0x0107). */
static uint16_t ro_block[3] = { 0x4731, 0x0105, 0x00E6 };
static uint16_t rw_block[8] = { 0x0001, 0x00FA, 0, 0, 0, 0, 0, 0 };

enum { REG_NONE, REG_RO, REG_RW };

static int reg_kind(long a)
{
    if (a >= 0x0000 && a <= 0x0002) return REG_RO;
    if (a >= 0x0100 && a <= 0x0107) return REG_RW;
    return REG_NONE;
}

static uint16_t *reg_ptr(long a)
{
    if (reg_kind(a) == REG_RO) return &ro_block[a];
    return &rw_block[a - 0x0100];
}

static bool value_ok(long a, unsigned v)
{
    switch (a) {
    case 0x0100: return v <= 3;
    case 0x0101: return v >= 50 && v <= 400;
    default:     return v <= 100;   /* vents 0x0102..0x0107 */
    }
}

static unsigned crc16(const unsigned char *p, int n)
{
    unsigned crc = 0xFFFF;
    while (n-- > 0) {
        crc ^= *p++;
        for (int i = 0; i < 8; i++)
            crc = (crc & 1) ? (crc >> 1) ^ 0xA001 : crc >> 1;
    }
    return crc;
}

static void emit(unsigned char *r, int n)
{
    unsigned crc = crc16(r, n);
    r[n] = crc & 0xFF;
    r[n + 1] = crc >> 8;
    n += 2;
    for (int i = 0; i < n; i++)
        printf("%02X%c", r[i], i + 1 < n ? ' ' : '\n');
}

/* Range check without wrap-around: start and count as long. */
static int check_range(long start, long count, bool write)
{
    for (long a = start; a < start + count; a++) {
        int k = reg_kind(a);
        if (k == REG_NONE || (write && k != REG_RW))
            return 0x02;
    }
    return 0;
}

static int do_read(const unsigned char *f, int n, unsigned char *r, int *rn)
{
    if (n != 8) return 0x03;
    long start = (f[2] << 8) | f[3];
    long qty = (f[4] << 8) | f[5];
    if (qty < 1 || qty > 125) return 0x03;
    int ex = check_range(start, qty, false);
    if (ex) return ex;
    r[2] = (unsigned char)(qty * 2);
    for (long i = 0; i < qty; i++) {
        uint16_t v = *reg_ptr(start + i);
        r[3 + 2 * i] = v >> 8;
        r[4 + 2 * i] = v & 0xFF;
    }
    *rn = 3 + 2 * (int)qty;
    return 0;
}

static int do_write_single(const unsigned char *f, int n, unsigned char *r, int *rn)
{
    if (n != 8) return 0x03;
    long a = (f[2] << 8) | f[3];
    unsigned v = (f[4] << 8) | f[5];
    int ex = check_range(a, 1, true);
    if (ex) return ex;
    if (!value_ok(a, v)) return 0x03;
    *reg_ptr(a) = (uint16_t)v;
    for (int i = 2; i < 6; i++)
        r[i] = f[i];
    *rn = 6;
    return 0;
}

static int do_write_multi(const unsigned char *f, int n, unsigned char *r, int *rn)
{
    if (n < 9 || n != 9 + f[6]) return 0x03;
    long start = (f[2] << 8) | f[3];
    long qty = (f[4] << 8) | f[5];
    if (qty < 1 || qty > 123 || f[6] != 2 * qty) return 0x03;
    int ex = check_range(start, qty, true);
    if (ex) return ex;
    for (long i = 0; i < qty; i++) {
        unsigned v = (f[7 + 2 * i] << 8) | f[8 + 2 * i];
        if (!value_ok(start + i, v)) return 0x03;
    }
    /* all values validated: commit */
    for (long i = 0; i < qty; i++)
        *reg_ptr(start + i) = (uint16_t)((f[7 + 2 * i] << 8) | f[8 + 2 * i]);
    for (int i = 2; i < 6; i++)
        r[i] = f[i];
    *rn = 6;
    return 0;
}

static void handle(const unsigned char *f, int n)
{
    unsigned char r[260];
    int rn = 0, ex;

    if (n < 4) return;
    unsigned crc = crc16(f, n - 2);
    if (f[n - 2] != (crc & 0xFF) || f[n - 1] != (crc >> 8)) return;
    if (f[0] != 0x11 && f[0] != 0x00) return;

    bool broadcast = (f[0] == 0x00);

    switch (f[1]) {
    case 0x03:
        ex = do_read(f, n, r, &rn);
        break;
    case 0x06:
        ex = do_write_single(f, n, r, &rn);
        break;
    case 0x10:
        ex = do_write_multi(f, n, r, &rn);
        break;
    default:
        ex = 0x01;
        break;
    }

    if (broadcast && f[1] != 0x03) return;
    r[0] = f[0];
    if (ex) {
        r[1] = f[1] | 0x80;
        r[2] = (unsigned char)ex;
        rn = 3;
    } else {
        r[1] = f[1];
    }
    emit(r, rn);
}

static int hexdigit(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    c |= 0x20;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

int main(void)
{
    /* Stream parser: per line, states expect hi digit, lo digit, or space. */
    unsigned char frame[400];
    int n = 0;
    enum { WANT_HI, WANT_LO, WANT_SEP } st = WANT_HI;
    bool bad = false;
    int hi = 0, c;
    long chars = 0;

    for (;;) {
        c = getchar();
        if (c == '\n' || c == EOF) {
            if (c == EOF && chars == 0)
                break;
            /* a line ending after a full byte (or empty) is well formed */
            if (!bad && (st == WANT_SEP || (st == WANT_HI && n == 0 && chars == 0)))
                handle(frame, n);
            n = 0; st = WANT_HI; bad = false; chars = 0;
            if (c == EOF)
                break;
            continue;
        }
        chars++;
        if (bad) continue;
        switch (st) {
        case WANT_HI:
            if ((hi = hexdigit(c)) < 0) bad = true;
            else st = WANT_LO;
            break;
        case WANT_LO: {
            int lo = hexdigit(c);
            if (lo < 0 || n >= (int)sizeof frame) { bad = true; break; }
            frame[n++] = (unsigned char)(hi << 4 | lo);
            st = WANT_SEP;
            break;
        }
        case WANT_SEP:
            if (c == ' ') st = WANT_HI;
            else bad = true;
            break;
        }
    }
    return 0;
}
