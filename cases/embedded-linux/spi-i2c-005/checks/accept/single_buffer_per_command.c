/* Accepted variant: every command is one spi_xfer() with a staging buffer,
 * each status poll is its own Read Status command, range checks in 64-bit. */
#include <string.h>
#include "spinor.h"

enum { OP_RDID = 0x9F, OP_RDSR = 0x05, OP_WREN = 0x06, OP_READ = 0x03, OP_PP = 0x02, OP_SE = 0x20 };

static uint8_t stage[4 + NOR_PAGE_SIZE];

static void put_header(uint8_t op, uint32_t a)
{
	stage[0] = op;
	stage[1] = (a >> 16) & 0xFF;
	stage[2] = (a >> 8) & 0xFF;
	stage[3] = a & 0xFF;
}

static int chip_idle(void)
{
	for (unsigned n = 1; n <= NOR_MAX_POLLS; ++n) {
		uint8_t tx[2] = { OP_RDSR, 0 }, rx[2];
		spi_xfer(tx, rx, 2, 0);
		if (!(rx[1] & 1))
			return 1;
	}
	return 0;
}

static int bad_range(uint32_t a, size_t n)
{
	unsigned long long end = (unsigned long long)a + (unsigned long long)n;
	return n > NOR_SIZE || end > NOR_SIZE;
}

int nor_init(void)
{
	static const uint8_t want[3] = { 0x5A, 0x70, 0x14 };
	uint8_t tx[4] = { OP_RDID }, rx[4];
	spi_xfer(tx, rx, 4, 0);
	return memcmp(rx + 1, want, 3) == 0 ? NOR_OK : NOR_EID;
}

int nor_read(uint32_t addr, uint8_t *buf, size_t len)
{
	if (len == 0)
		return NOR_OK;
	if (bad_range(addr, len))
		return NOR_EINVAL;
	put_header(OP_READ, addr);
	spi_xfer(stage, NULL, 4, 1);
	spi_xfer(NULL, buf, len, 0);
	return NOR_OK;
}

static int run_op(size_t nbytes)
{
	const uint8_t wren = OP_WREN;
	spi_xfer(&wren, NULL, 1, 0);
	spi_xfer(stage, NULL, nbytes, 0);
	return chip_idle() ? NOR_OK : NOR_ETIMEOUT;
}

int nor_erase(uint32_t addr, size_t len)
{
	if (len == 0)
		return NOR_OK;
	if (bad_range(addr, len) || (addr | len) & (NOR_SECTOR_SIZE - 1))
		return NOR_EINVAL;
	for (uint32_t a = addr; a < addr + len; a += NOR_SECTOR_SIZE) {
		put_header(OP_SE, a);
		if (run_op(4) != NOR_OK)
			return NOR_ETIMEOUT;
	}
	return NOR_OK;
}

int nor_write(uint32_t addr, const uint8_t *buf, size_t len)
{
	size_t off = 0;

	if (len == 0)
		return NOR_OK;
	if (bad_range(addr, len))
		return NOR_EINVAL;
	while (off < len) {
		uint32_t a = addr + (uint32_t)off;
		size_t n = NOR_PAGE_SIZE - (a & (NOR_PAGE_SIZE - 1));
		if (n > len - off)
			n = len - off;
		put_header(OP_PP, a);
		memcpy(stage + 4, buf + off, n);
		if (run_op(4 + n) != NOR_OK)
			return NOR_ETIMEOUT;
		off += n;
	}
	return NOR_OK;
}
