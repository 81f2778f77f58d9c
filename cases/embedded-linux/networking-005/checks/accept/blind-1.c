/*
 * mbserver - Modbus RTU server (slave) frame handling for the greenhouse
 * climate controller, unit address 0x11.
 *
 * Reads one frame per line of standard input (hex bytes separated by single
 * spaces) and prints the response frame, if any.  No dynamic memory.
 */
#include <stdio.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#define UNIT_ADDR       0x11u
#define BROADCAST_ADDR  0x00u

#define FC_READ_HOLDING   0x03u
#define FC_WRITE_SINGLE   0x06u
#define FC_WRITE_MULTIPLE 0x10u

#define EX_ILLEGAL_FUNCTION 0x01u
#define EX_ILLEGAL_ADDRESS  0x02u
#define EX_ILLEGAL_VALUE    0x03u

#define MAX_LINE_CHARS 1000
#define MAX_FRAME      ((MAX_LINE_CHARS + 1) / 3 + 1)
#define MAX_RESPONSE   (3 + 2 * 125 + 2)

struct reg {
    uint16_t addr;
    int      writable;
    uint16_t min;
    uint16_t max;
    uint16_t value;
};

static struct reg regs[] = {
    { 0x0000, 0, 0,  0,   0x4731 }, /* device type */
    { 0x0001, 0, 0,  0,   0x0105 }, /* firmware version */
    { 0x0002, 0, 0,  0,   0x00E6 }, /* air temperature */
    { 0x0100, 1, 0,  3,   0x0001 }, /* mode */
    { 0x0101, 1, 50, 400, 0x00FA }, /* temperature set point */
    { 0x0102, 1, 0,  100, 0x0000 }, /* vent 1 */
    { 0x0103, 1, 0,  100, 0x0000 }, /* vent 2 */
    { 0x0104, 1, 0,  100, 0x0000 }, /* vent 3 */
    { 0x0105, 1, 0,  100, 0x0000 }, /* vent 4 */
    { 0x0106, 1, 0,  100, 0x0000 }, /* vent 5 */
    { 0x0107, 1, 0,  100, 0x0000 }, /* vent 6 */
};
#define NUM_REGS (sizeof regs / sizeof regs[0])

static struct reg *find_reg(uint32_t addr)
{
    for (size_t i = 0; i < NUM_REGS; i++) {
        if (regs[i].addr == addr)
            return &regs[i];
    }
    return NULL;
}

static uint16_t crc16_modbus(const uint8_t *p, size_t n)
{
    uint16_t crc = 0xFFFF;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int b = 0; b < 8; b++) {
            if (crc & 1u)
                crc = (uint16_t)((crc >> 1) ^ 0xA001u);
            else
                crc = (uint16_t)(crc >> 1);
        }
    }
    return crc;
}

static uint16_t get_be16(const uint8_t *p)
{
    return (uint16_t)(((uint16_t)p[0] << 8) | p[1]);
}

static void put_be16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)(v & 0xFF);
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Parse "HH HH HH" (no trailing space).  Returns byte count or -1. */
static int parse_line(const char *s, size_t len, uint8_t *out, size_t cap)
{
    size_t n = 0;
    size_t i = 0;

    if (len == 0)
        return 0;
    for (;;) {
        if (i + 2 > len)
            return -1;
        int hi = hexval((unsigned char)s[i]);
        int lo = hexval((unsigned char)s[i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        if (n >= cap)
            return -1;
        out[n++] = (uint8_t)((hi << 4) | lo);
        i += 2;
        if (i == len)
            break;
        if (s[i] != ' ')
            return -1;
        i++;
    }
    return (int)n;
}

/* Append CRC and print the frame. */
static void send_frame(uint8_t *f, size_t n)
{
    uint16_t crc = crc16_modbus(f, n);
    f[n++] = (uint8_t)(crc & 0xFF);
    f[n++] = (uint8_t)(crc >> 8);
    for (size_t i = 0; i < n; i++)
        printf(i ? " %02X" : "%02X", f[i]);
    putchar('\n');
}

/* Returns 0 on success (rsp filled, *rsp_len set) or an exception code. */
static int handle_request(const uint8_t *f, size_t len,
                          uint8_t *rsp, size_t *rsp_len)
{
    uint8_t fc = f[1];

    /* 1. function code */
    if (fc != FC_READ_HOLDING && fc != FC_WRITE_SINGLE &&
        fc != FC_WRITE_MULTIPLE)
        return EX_ILLEGAL_FUNCTION;

    /* 2. length */
    if (fc == FC_READ_HOLDING || fc == FC_WRITE_SINGLE) {
        if (len != 8)
            return EX_ILLEGAL_VALUE;
    } else {
        if (len < 9 || len != 9u + f[6])
            return EX_ILLEGAL_VALUE;
    }

    uint16_t start = get_be16(&f[2]);
    uint32_t qty;

    /* 3. quantity */
    if (fc == FC_READ_HOLDING) {
        qty = get_be16(&f[4]);
        if (qty < 1 || qty > 125)
            return EX_ILLEGAL_VALUE;
    } else if (fc == FC_WRITE_MULTIPLE) {
        qty = get_be16(&f[4]);
        if (qty < 1 || qty > 123 || f[6] != 2 * qty)
            return EX_ILLEGAL_VALUE;
    } else {
        qty = 1;
    }

    /* 4. address (no 16-bit wrap: computed in 32 bits) */
    for (uint32_t a = start; a < (uint32_t)start + qty; a++) {
        const struct reg *r = find_reg(a);
        if (r == NULL)
            return EX_ILLEGAL_ADDRESS;
        if (fc != FC_READ_HOLDING && !r->writable)
            return EX_ILLEGAL_ADDRESS;
    }

    /* 5. values */
    const uint8_t *vals = (fc == FC_WRITE_SINGLE) ? &f[4] : &f[7];
    if (fc != FC_READ_HOLDING) {
        for (uint32_t k = 0; k < qty; k++) {
            const struct reg *r = find_reg(start + k);
            uint16_t v = get_be16(&vals[2 * k]);
            if (v < r->min || v > r->max)
                return EX_ILLEGAL_VALUE;
        }
    }

    /* 6. execute */
    rsp[0] = f[0];
    rsp[1] = fc;
    if (fc == FC_READ_HOLDING) {
        rsp[2] = (uint8_t)(2 * qty);
        for (uint32_t k = 0; k < qty; k++)
            put_be16(&rsp[3 + 2 * k], find_reg(start + k)->value);
        *rsp_len = 3 + 2 * qty;
    } else {
        for (uint32_t k = 0; k < qty; k++)
            find_reg(start + k)->value = get_be16(&vals[2 * k]);
        memcpy(&rsp[2], &f[2], 4);
        *rsp_len = 6;
    }
    return 0;
}

static void process_frame(const uint8_t *f, size_t len)
{
    uint8_t rsp[MAX_RESPONSE];
    size_t rsp_len = 0;

    if (len < 4)
        return;
    uint16_t crc = crc16_modbus(f, len - 2);
    if (f[len - 2] != (crc & 0xFF) || f[len - 1] != (crc >> 8))
        return;

    uint8_t addr = f[0];
    if (addr != UNIT_ADDR && addr != BROADCAST_ADDR)
        return;
    if (addr == BROADCAST_ADDR && f[1] == FC_READ_HOLDING)
        return;

    int ex = handle_request(f, len, rsp, &rsp_len);

    if (addr == BROADCAST_ADDR)
        return;             /* executed (if valid), never answered */

    if (ex != 0) {
        rsp[0] = addr;
        rsp[1] = (uint8_t)(f[1] | 0x80);
        rsp[2] = (uint8_t)ex;
        rsp_len = 3;
    }
    send_frame(rsp, rsp_len);
}

int main(void)
{
    char line[MAX_LINE_CHARS + 8];
    uint8_t frame[MAX_FRAME];

    while (fgets(line, sizeof line, stdin) != NULL) {
        size_t len = strlen(line);
        int complete = (len > 0 && line[len - 1] == '\n');

        if (!complete && !feof(stdin)) {
            /* over-long line: skip the rest of it, drop it */
            int c;
            while ((c = getchar()) != EOF && c != '\n')
                ;
            continue;
        }
        if (complete)
            line[--len] = '\0';

        int n = parse_line(line, len, frame, sizeof frame);
        if (n < 0)
            continue;
        process_frame(frame, (size_t)n);
    }
    return 0;
}
