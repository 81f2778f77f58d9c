/* KF25Q80 SPI NOR flash driver: identify, read, sector erase, page-split
 * program, each program/erase write-enabled and waited for with a bounded
 * number of status reads. */
#include <stdint.h>
#include <stddef.h>
#include "spinor.h"

#define CMD_READ_ID   0x9Fu
#define CMD_RDSR      0x05u
#define CMD_WREN      0x06u
#define CMD_READ      0x03u
#define CMD_PP        0x02u
#define CMD_SE        0x20u
#define SR_BUSY       0x01u

static void send_cmd_addr(uint8_t cmd, uint32_t addr, int hold)
{
	uint8_t hdr[4];

	hdr[0] = cmd;
	hdr[1] = (uint8_t)(addr >> 16);
	hdr[2] = (uint8_t)(addr >> 8);
	hdr[3] = (uint8_t)addr;
	spi_xfer(hdr, NULL, sizeof(hdr), hold);
}

static void write_enable(void)
{
	uint8_t cmd = CMD_WREN;

	spi_xfer(&cmd, NULL, 1, 0);
}

/* Reads the status register until BUSY clears, at most NOR_MAX_POLLS reads. */
static int wait_ready(void)
{
	uint8_t cmd = CMD_RDSR;
	uint8_t sr;
	unsigned polls;

	spi_xfer(&cmd, NULL, 1, 1);
	for (polls = 0; polls < NOR_MAX_POLLS; polls++) {
		spi_xfer(NULL, &sr, 1, 1);
		if ((sr & SR_BUSY) == 0) {
			spi_xfer(NULL, NULL, 0, 0);
			return NOR_OK;
		}
	}
	spi_xfer(NULL, NULL, 0, 0);
	return NOR_ETIMEOUT;
}

/* Whether [addr, addr + len) lies inside the chip; len > 0. */
static int in_range(uint32_t addr, size_t len)
{
	return addr < NOR_SIZE && len <= (size_t)(NOR_SIZE - addr);
}

int nor_init(void)
{
	uint8_t tx[4] = { CMD_READ_ID, 0, 0, 0 };
	uint8_t rx[4];

	spi_xfer(tx, rx, sizeof(tx), 0);
	if (rx[1] != 0x5A || rx[2] != 0x70 || rx[3] != 0x14)
		return NOR_EID;
	return NOR_OK;
}

int nor_read(uint32_t addr, uint8_t *buf, size_t len)
{
	if (len == 0)
		return NOR_OK;
	if (!in_range(addr, len))
		return NOR_EINVAL;
	send_cmd_addr(CMD_READ, addr, 1);
	spi_xfer(NULL, buf, len, 0);
	return NOR_OK;
}

int nor_erase(uint32_t addr, size_t len)
{
	size_t done;

	if (len == 0)
		return NOR_OK;
	if (!in_range(addr, len) || addr % NOR_SECTOR_SIZE != 0 || len % NOR_SECTOR_SIZE != 0)
		return NOR_EINVAL;
	for (done = 0; done < len; done += NOR_SECTOR_SIZE) {
		write_enable();
		send_cmd_addr(CMD_SE, addr + (uint32_t)done, 0);
		if (wait_ready() != NOR_OK)
			return NOR_ETIMEOUT;
	}
	return NOR_OK;
}

int nor_write(uint32_t addr, const uint8_t *buf, size_t len)
{
	if (len == 0)
		return NOR_OK;
	if (!in_range(addr, len))
		return NOR_EINVAL;
	while (len > 0) {
		size_t room = NOR_PAGE_SIZE - (addr % NOR_PAGE_SIZE);
		size_t chunk = len < room ? len : room;

		write_enable();
		send_cmd_addr(CMD_PP, addr, 1);
		spi_xfer(buf, NULL, chunk, 0);
		if (wait_ready() != NOR_OK)
			return NOR_ETIMEOUT;
		addr += (uint32_t)chunk;
		buf += chunk;
		len -= chunk;
	}
	return NOR_OK;
}
