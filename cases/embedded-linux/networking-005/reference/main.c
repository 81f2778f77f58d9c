/* mbserver: Modbus RTU server request handling for the greenhouse controller. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define UNIT_ADDR      0x11u
#define BROADCAST      0x00u
#define MAX_FRAME      400u  /* a 1000-character line holds at most 333 bytes */

#define EX_ILLEGAL_FUNCTION  0x01u
#define EX_ILLEGAL_ADDRESS   0x02u
#define EX_ILLEGAL_VALUE     0x03u

struct holding_reg {
	uint16_t addr;
	bool writable;
	uint16_t min, max;
	uint16_t value;
};

static struct holding_reg regs[] = {
	{ 0x0000, false, 0, 0xFFFF, 0x4731 },
	{ 0x0001, false, 0, 0xFFFF, 0x0105 },
	{ 0x0002, false, 0, 0xFFFF, 0x00E6 },
	{ 0x0100, true, 0, 3, 0x0001 },
	{ 0x0101, true, 50, 400, 0x00FA },
	{ 0x0102, true, 0, 100, 0 },
	{ 0x0103, true, 0, 100, 0 },
	{ 0x0104, true, 0, 100, 0 },
	{ 0x0105, true, 0, 100, 0 },
	{ 0x0106, true, 0, 100, 0 },
	{ 0x0107, true, 0, 100, 0 },
};

#define NREGS (sizeof(regs) / sizeof(regs[0]))

static uint16_t crc16_modbus(const uint8_t *p, size_t n)
{
	uint16_t crc = 0xFFFF;

	while (n--) {
		crc ^= *p++;
		for (int b = 0; b < 8; b++)
			crc = (crc & 1) ? (uint16_t)((crc >> 1) ^ 0xA001) : (uint16_t)(crc >> 1);
	}
	return crc;
}

static struct holding_reg *find_reg(uint32_t addr)
{
	for (size_t i = 0; i < NREGS; i++)
		if (regs[i].addr == addr)
			return &regs[i];
	return NULL;
}

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void send(uint8_t *frame, size_t n)
{
	uint16_t crc = crc16_modbus(frame, n);

	frame[n++] = (uint8_t)(crc & 0xFF);
	frame[n++] = (uint8_t)(crc >> 8);
	for (size_t i = 0; i < n; i++)
		printf(i ? " %02X" : "%02X", frame[i]);
	putchar('\n');
}

/* Checks a register range [start, start + n) for existence and, for writes,
 * access. Returns 0 or an exception code. */
static uint8_t check_range(uint32_t start, uint32_t n, bool write)
{
	for (uint32_t a = start; a < start + n; a++) {
		struct holding_reg *r = find_reg(a);

		if (r == NULL || (write && !r->writable))
			return EX_ILLEGAL_ADDRESS;
	}
	return 0;
}

/* Returns the exception code, or 0 when resp holds the normal response of
 * resp_len bytes (CRC excluded). */
static uint8_t handle(const uint8_t *f, size_t len, uint8_t *resp, size_t *resp_len)
{
	uint8_t fc = f[1];
	uint32_t start, n;
	uint8_t ex;

	if (fc != 0x03 && fc != 0x06 && fc != 0x10)
		return EX_ILLEGAL_FUNCTION;
	if (fc == 0x10 ? (len < 9 || len != 9u + f[6]) : len != 8)
		return EX_ILLEGAL_VALUE;

	start = be16(f + 2);
	switch (fc) {
	case 0x03:
		n = be16(f + 4);
		if (n < 1 || n > 125)
			return EX_ILLEGAL_VALUE;
		if ((ex = check_range(start, n, false)) != 0)
			return ex;
		resp[2] = (uint8_t)(2 * n);
		for (uint32_t i = 0; i < n; i++) {
			uint16_t v = find_reg(start + i)->value;

			resp[3 + 2 * i] = (uint8_t)(v >> 8);
			resp[4 + 2 * i] = (uint8_t)v;
		}
		*resp_len = 3 + 2 * n;
		return 0;
	case 0x06: {
		uint16_t v = be16(f + 4);
		struct holding_reg *r;

		if ((ex = check_range(start, 1, true)) != 0)
			return ex;
		r = find_reg(start);
		if (v < r->min || v > r->max)
			return EX_ILLEGAL_VALUE;
		r->value = v;
		memcpy(resp + 2, f + 2, 4);
		*resp_len = 6;
		return 0;
	}
	default: /* 0x10 */
		n = be16(f + 4);
		if (n < 1 || n > 123 || f[6] != 2 * n)
			return EX_ILLEGAL_VALUE;
		if ((ex = check_range(start, n, true)) != 0)
			return ex;
		for (uint32_t i = 0; i < n; i++) {
			struct holding_reg *r = find_reg(start + i);
			uint16_t v = be16(f + 7 + 2 * i);

			if (v < r->min || v > r->max)
				return EX_ILLEGAL_VALUE;
		}
		for (uint32_t i = 0; i < n; i++)
			find_reg(start + i)->value = be16(f + 7 + 2 * i);
		memcpy(resp + 2, f + 2, 4);
		*resp_len = 6;
		return 0;
	}
}

static void process(const uint8_t *f, size_t len)
{
	uint8_t resp[MAX_FRAME + 8];
	size_t resp_len = 0;
	uint8_t ex;

	if (len < 4 || crc16_modbus(f, len - 2) != (uint16_t)(f[len - 2] | f[len - 1] << 8))
		return;
	if (f[0] == BROADCAST) {
		if (f[1] == 0x06 || f[1] == 0x10)
			(void)handle(f, len, resp, &resp_len);
		return;
	}
	if (f[0] != UNIT_ADDR)
		return;

	resp[0] = UNIT_ADDR;
	ex = handle(f, len, resp, &resp_len);
	if (ex != 0) {
		resp[1] = f[1] | 0x80;
		resp[2] = ex;
		resp_len = 3;
	} else {
		resp[1] = f[1];
	}
	send(resp, resp_len);
}

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* "HH HH HH": two hex digits per byte, single spaces between bytes. */
static long parse_line(const char *s, uint8_t *out, size_t cap)
{
	size_t n = 0;

	for (;;) {
		int hi = hexval((unsigned char)s[0]), lo;

		if (hi < 0 || (lo = hexval((unsigned char)s[1])) < 0 || n == cap)
			return -1;
		out[n++] = (uint8_t)(hi << 4 | lo);
		s += 2;
		if (*s == '\0')
			return (long)n;
		if (*s != ' ')
			return -1;
		s++;
	}
}

int main(void)
{
	static char line[1024];
	static uint8_t frame[MAX_FRAME];

	while (fgets(line, sizeof(line), stdin) != NULL) {
		long n;

		line[strcspn(line, "\r\n")] = '\0';
		n = parse_line(line, frame, sizeof(frame));
		if (n > 0)
			process(frame, (size_t)n);
	}
	return 0;
}
