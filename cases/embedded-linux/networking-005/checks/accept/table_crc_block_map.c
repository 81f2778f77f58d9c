/*
 * Greenhouse controller Modbus RTU slave: table-driven CRC, register blocks
 * described by base address and length, validation before execution.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { MY_ADDR = 0x11, FC_READ = 0x03, FC_WRITE1 = 0x06, FC_WRITEN = 0x10 };
enum { EXC_FUNC = 1, EXC_ADDR = 2, EXC_VALUE = 3 };

static uint16_t crc_table[256];

static void crc_init(void)
{
	for (unsigned i = 0; i < 256; i++) {
		uint16_t c = (uint16_t)i;
		for (int k = 0; k < 8; k++)
			c = (c & 1u) ? (uint16_t)((c >> 1) ^ 0xA001u) : (uint16_t)(c >> 1);
		crc_table[i] = c;
	}
}

static uint16_t crc_calc(const uint8_t *buf, unsigned len)
{
	uint16_t c = 0xFFFF;
	for (unsigned i = 0; i < len; i++)
		c = (uint16_t)((c >> 8) ^ crc_table[(c ^ buf[i]) & 0xFF]);
	return c;
}

/* Block 0: read-only identification/measurement; block 1: settings. */
static uint16_t ro_block[3] = { 0x4731, 0x0105, 0x00E6 };
static uint16_t rw_block[8] = { 1, 250, 0, 0, 0, 0, 0, 0 };
static const uint16_t rw_lo[8] = { 0, 50, 0, 0, 0, 0, 0, 0 };
static const uint16_t rw_hi[8] = { 3, 400, 100, 100, 100, 100, 100, 100 };

/* Pointer to a register, or NULL; *rw tells whether it may be written. */
static uint16_t *reg_at(long a, int *rw)
{
	if (a >= 0 && a < 3) {
		*rw = 0;
		return &ro_block[a];
	}
	if (a >= 0x100 && a < 0x108) {
		*rw = 1;
		return &rw_block[a - 0x100];
	}
	return NULL;
}

static int range_ok(long first, long count, int writing)
{
	for (long a = first; a < first + count; a++) {
		int rw;
		if (reg_at(a, &rw) == NULL || (writing && !rw))
			return 0;
	}
	return 1;
}

static int value_ok(long a, unsigned v)
{
	return v >= rw_lo[a - 0x100] && v <= rw_hi[a - 0x100];
}

static unsigned out_len;
static uint8_t out[300];

static int serve(const uint8_t *q, unsigned n)
{
	unsigned fc = q[1];
	long start = (long)(q[2] << 8 | q[3]);
	long cnt = (long)(q[4] << 8 | q[5]);

	if (fc != FC_READ && fc != FC_WRITE1 && fc != FC_WRITEN)
		return EXC_FUNC;
	if (fc == FC_WRITEN) {
		if (n < 9 || n != 9u + q[6])
			return EXC_VALUE;
	} else if (n != 8) {
		return EXC_VALUE;
	}

	if (fc == FC_READ) {
		if (cnt < 1 || cnt > 125)
			return EXC_VALUE;
		if (!range_ok(start, cnt, 0))
			return EXC_ADDR;
		out[2] = (uint8_t)(cnt * 2);
		out_len = 3;
		for (long a = start; a < start + cnt; a++) {
			int rw;
			uint16_t v = *reg_at(a, &rw);
			out[out_len++] = (uint8_t)(v >> 8);
			out[out_len++] = (uint8_t)(v & 0xFF);
		}
		return 0;
	}
	if (fc == FC_WRITE1) {
		int rw;
		if (!range_ok(start, 1, 1))
			return EXC_ADDR;
		if (!value_ok(start, (unsigned)cnt))
			return EXC_VALUE;
		*reg_at(start, &rw) = (uint16_t)cnt;
	} else {
		if (cnt < 1 || cnt > 123 || q[6] != cnt * 2)
			return EXC_VALUE;
		if (!range_ok(start, cnt, 1))
			return EXC_ADDR;
		for (long i = 0; i < cnt; i++)
			if (!value_ok(start + i, (unsigned)(q[7 + 2 * i] << 8 | q[8 + 2 * i])))
				return EXC_VALUE;
		for (long i = 0; i < cnt; i++) {
			int rw;
			*reg_at(start + i, &rw) = (uint16_t)(q[7 + 2 * i] << 8 | q[8 + 2 * i]);
		}
	}
	memcpy(out + 2, q + 2, 4);
	out_len = 6;
	return 0;
}

static void emit(void)
{
	uint16_t c = crc_calc(out, out_len);
	out[out_len++] = (uint8_t)c;
	out[out_len++] = (uint8_t)(c >> 8);
	for (unsigned i = 0; i < out_len; i++)
		printf("%s%02X", i ? " " : "", out[i]);
	printf("\n");
}

static int nibble(char c)
{
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	return -1;
}

int main(void)
{
	char text[1100];
	uint8_t rx[400];

	crc_init();
	while (fgets(text, sizeof text, stdin)) {
		size_t len = strlen(text);
		unsigned n = 0;
		int bad = 0;

		while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r'))
			text[--len] = '\0';
		/* tokens are at positions 0, 3, 6, ... */
		if (len == 0 || len % 3 != 2)
			continue;
		for (size_t i = 0; i < len && !bad; i += 3) {
			int h = nibble(text[i]), l = nibble(text[i + 1]);
			if (h < 0 || l < 0 || (i + 2 < len && text[i + 2] != ' '))
				bad = 1;
			else
				rx[n++] = (uint8_t)(h * 16 + l);
		}
		if (bad || n < 4)
			continue;
		if (crc_calc(rx, n - 2) != (uint16_t)(rx[n - 2] + 256 * rx[n - 1]))
			continue;
		if (rx[0] == 0) {
			if (rx[1] == FC_WRITE1 || rx[1] == FC_WRITEN)
				serve(rx, n);
			continue;
		}
		if (rx[0] != MY_ADDR)
			continue;
		out[0] = MY_ADDR;
		int ex = serve(rx, n);
		if (ex) {
			out[1] = (uint8_t)(rx[1] | 0x80);
			out[2] = (uint8_t)ex;
			out_len = 3;
		} else {
			out[1] = rx[1];
		}
		emit();
	}
	return 0;
}
