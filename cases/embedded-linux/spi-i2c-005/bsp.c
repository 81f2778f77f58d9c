/* Hidden test bench for spi-i2c-005: main() and spi_xfer() with a simulated
 * KF25Q80 behind it. Reads a script from stdin, calls the driver, prints
 * results and the flash as the chip holds it.
 *
 * Script lines:
 *   init                       call nor_init()
 *   read A N | erase A N       call the driver (A, N: any 64-bit values)
 *   write A N SEED             call nor_write() with generated data
 *   dump A N | sum A N         the chip's memory directly (hex / crc32)
 *   fill A N BYTE              preset the chip's memory directly
 *   set program N | set erase N | set stuck | set id B0 B1 B2
 *   stats                      programs/erases started, ignored commands,
 *                              waits that read BUSY more than 5000 times
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "spinor.h"

#define MEM_SIZE 0x100000u

static uint8_t mem[MEM_SIZE];
static uint8_t chip_id[3] = { 0x5A, 0x70, 0x14 };
static unsigned prog_polls = 12, erase_polls = 300;
static int stuck_next;

static int cs;
static unsigned pos;
static uint8_t opcode;
static uint32_t addr;
static unsigned ndata;
static int cmd_ignored;
static uint8_t pp_mask[256];
static uint32_t pp_base;

static int wel, busy, stuck;
static unsigned long busy_left, busy_reads;
static unsigned programs, erases, ignored, overpolled;
static unsigned long clocked;

static uint32_t crc32(const uint8_t *p, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;

	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
	}
	return c ^ 0xFFFFFFFFu;
}

static void start_busy(unsigned long n)
{
	busy = 1;
	busy_left = n;
	busy_reads = 0;
	stuck = stuck_next;
	stuck_next = 0;
	wel = 0;
}

static uint8_t clock_byte(uint8_t out)
{
	uint8_t in = 0xFF;

	clocked++;
	if (pos == 0) {
		opcode = out;
		pos = 1;
		ndata = 0;
		addr = 0;
		cmd_ignored = busy && opcode != 0x05;
		if (cmd_ignored)
			ignored++;
		return 0xFF;
	}
	if (cmd_ignored) {
		pos++;
		return 0xFF;
	}
	switch (opcode) {
	case 0x9F:
		in = pos <= 3 ? chip_id[pos - 1] : 0xFF;
		break;
	case 0x05:
		in = (uint8_t)((busy ? 1 : 0) | (wel ? 2 : 0));
		if (busy) {
			if (++busy_reads == 5001)
				overpolled++;
			if (!stuck && --busy_left == 0)
				busy = 0;
		}
		break;
	case 0x03:
		if (pos <= 3) {
			addr = (addr << 8) | out;
		} else {
			in = mem[addr & (MEM_SIZE - 1)];
			addr = (addr + 1) & (MEM_SIZE - 1);
		}
		break;
	case 0x02:
		if (pos <= 3) {
			addr = (addr << 8) | out;
			if (pos == 3) {
				memset(pp_mask, 0xFF, sizeof(pp_mask));
				pp_base = addr & (MEM_SIZE - 1) & ~0xFFu;
			}
		} else {
			pp_mask[(addr + ndata) & 0xFFu] &= out;
			ndata++;
		}
		break;
	case 0x20:
		if (pos <= 3)
			addr = (addr << 8) | out;
		break;
	default:
		break;
	}
	pos++;
	return in;
}

static void cs_release(void)
{
	cs = 0;
	if (pos == 0 || cmd_ignored)
		goto out;
	switch (opcode) {
	case 0x06:
		wel = 1;
		break;
	case 0x02:
		if (pos < 4 || ndata == 0)
			break;
		if (!wel) {
			ignored++;
			break;
		}
		for (unsigned i = 0; i < 256; i++)
			mem[pp_base + i] &= pp_mask[i];
		programs++;
		start_busy(prog_polls);
		break;
	case 0x20:
		if (pos < 4)
			break;
		if (!wel) {
			ignored++;
			break;
		}
		memset(mem + ((addr & (MEM_SIZE - 1)) & ~0xFFFu), 0xFF, 4096);
		erases++;
		start_busy(erase_polls);
		break;
	case 0x05:
	case 0x9F:
	case 0x03:
		break;
	default:
		ignored++;
		break;
	}
out:
	pos = 0;
}

int spi_xfer(const uint8_t *tx, uint8_t *rx, size_t len, int cs_hold)
{
	if (!cs) {
		cs = 1;
		pos = 0;
	}
	for (size_t i = 0; i < len; i++) {
		uint8_t in = clock_byte(tx ? tx[i] : 0x00);

		if (rx)
			rx[i] = in;
	}
	if (!cs_hold)
		cs_release();
	return 0;
}

static void gen(uint8_t *b, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t)(seed + 7u * i + (i >> 8));
}

static void print_hex(const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("%02x", b[i]);
}

#define BIG_LIMIT 0x200000ull
#define GUARD 16

int main(void)
{
	char line[256];

	memset(mem, 0xFF, sizeof(mem));
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (fgets(line, sizeof(line), stdin)) {
		char w[5][64];
		int n = sscanf(line, "%63s %63s %63s %63s %63s", w[0], w[1], w[2], w[3], w[4]);

		if (n <= 0 || w[0][0] == '#')
			continue;
		unsigned long long a = n > 1 ? strtoull(w[1], NULL, 0) : 0;
		unsigned long long len = n > 2 ? strtoull(w[2], NULL, 0) : 0;

		if (!strcmp(w[0], "init")) {
			printf("init: %d\n", nor_init());
		} else if (!strcmp(w[0], "read") || !strcmp(w[0], "write") || !strcmp(w[0], "erase")) {
			size_t alloc = len <= BIG_LIMIT ? (size_t)len : 0;
			uint8_t *buf = malloc(alloc + GUARD);
			int rc;

			memset(buf, 0xA5, alloc + GUARD);
			if (w[0][0] == 'w')
				gen(buf, alloc, n > 3 ? (unsigned)strtoul(w[3], NULL, 0) : 0);
			clocked = 0;
			if (w[0][0] == 'r')
				rc = nor_read((uint32_t)a, buf, (size_t)len);
			else if (w[0][0] == 'w')
				rc = nor_write((uint32_t)a, buf, (size_t)len);
			else
				rc = nor_erase((uint32_t)a, (size_t)len);
			printf("%s %s %s: %d", w[0], w[1], w[2], rc);
			if (w[0][0] == 'r' && rc == 0 && len <= BIG_LIMIT) {
				printf(" crc32=%08x", crc32(buf, alloc));
				if (len <= 64) {
					printf(" data=");
					print_hex(buf, alloc);
				}
			}
			for (size_t i = 0; i < GUARD; i++)
				if (buf[alloc + i] != 0xA5) {
					printf(" OVERRUN");
					break;
				}
			if ((len == 0 || rc == NOR_EINVAL) && clocked > 0)
				printf(" (clocked %lu bytes)", clocked);
			if (busy)
				printf(" (chip busy)");
			if (cs)
				printf(" (chip select left asserted)");
			printf("\n");
			free(buf);
		} else if (!strcmp(w[0], "dump") && a + len <= MEM_SIZE) {
			printf("dump %s: ", w[1]);
			print_hex(mem + a, (size_t)len);
			printf("\n");
		} else if (!strcmp(w[0], "sum") && a + len <= MEM_SIZE) {
			printf("sum %s %s: crc32=%08x\n", w[1], w[2], crc32(mem + a, (size_t)len));
		} else if (!strcmp(w[0], "fill") && a + len <= MEM_SIZE && n > 3) {
			memset(mem + a, (int)strtoul(w[3], NULL, 0), (size_t)len);
		} else if (!strcmp(w[0], "set") && n > 1) {
			if (!strcmp(w[1], "program") && n > 2)
				prog_polls = (unsigned)strtoul(w[2], NULL, 0);
			else if (!strcmp(w[1], "erase") && n > 2)
				erase_polls = (unsigned)strtoul(w[2], NULL, 0);
			else if (!strcmp(w[1], "stuck"))
				stuck_next = 1;
			else if (!strcmp(w[1], "id") && n > 4)
				for (int i = 0; i < 3; i++)
					chip_id[i] = (uint8_t)strtoul(w[2 + i], NULL, 0);
		} else if (!strcmp(w[0], "stats")) {
			printf("programs=%u erases=%u ignored=%u overpolled=%u\n", programs, erases, ignored, overpolled);
		} else {
			printf("bench: bad script line\n");
		}
	}
	return 0;
}
