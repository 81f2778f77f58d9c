/* defect: the range check adds addr and len in 32 bits, so hostile values wrap (e.g. addr 0xFFFFF000, len 0x2000) and pass the check.
 * breaks: "Otherwise the range `addr` … `addr + len - 1` must lie entirely inside the chip (0x000000 to 0x0FFFFF); if it does not, the function returns `NOR_EINVAL` and clocks nothing."
 * must_fail: scenario_range_overflow
 */
/* SPI NOR flash driver for the Kestrel KF25Q80 (1 MiB) data logger flash. */
#include "spinor.h"

#define OP_READ_JEDEC   0x9Fu
#define OP_READ_STATUS  0x05u
#define OP_WRITE_ENABLE 0x06u
#define OP_READ_DATA    0x03u
#define OP_PAGE_PROGRAM 0x02u
#define OP_SECTOR_ERASE 0x20u

#define SR_BUSY 0x01u

/* Returns nonzero when [addr, addr + len - 1] lies inside the chip.
 * len must be > 0. */
static int range_ok(uint32_t addr, size_t len)
{
    uint32_t end = addr + (uint32_t)len;

    return end <= NOR_SIZE;
}

/* Sends an opcode followed by a 3-byte address, keeping chip select
 * asserted so that the caller can continue the command. */
static void send_cmd_addr(uint8_t op, uint32_t addr)
{
    uint8_t hdr[4];

    hdr[0] = op;
    hdr[1] = (uint8_t)(addr >> 16);
    hdr[2] = (uint8_t)(addr >> 8);
    hdr[3] = (uint8_t)addr;
    spi_xfer(hdr, NULL, sizeof hdr, 1);
}

static void write_enable(void)
{
    const uint8_t op = OP_WRITE_ENABLE;

    spi_xfer(&op, NULL, 1, 0);
}

/* Waits for BUSY to clear with a single Read Status command, clocking at
 * most NOR_MAX_POLLS status bytes. */
static int wait_ready(void)
{
    const uint8_t op = OP_READ_STATUS;
    uint8_t status = SR_BUSY;
    unsigned polls;

    spi_xfer(&op, NULL, 1, 1);
    for (polls = 0; polls < NOR_MAX_POLLS; polls++) {
        spi_xfer(NULL, &status, 1, 1);
        if ((status & SR_BUSY) == 0)
            break;
    }
    spi_xfer(NULL, NULL, 0, 0); /* end the Read Status command */

    return (status & SR_BUSY) ? NOR_ETIMEOUT : NOR_OK;
}

int nor_init(void)
{
    uint8_t tx[4] = { OP_READ_JEDEC, 0, 0, 0 };
    uint8_t rx[4];

    spi_xfer(tx, rx, sizeof tx, 0);
    if (rx[1] != 0x5A || rx[2] != 0x70 || rx[3] != 0x14)
        return NOR_EID;
    return NOR_OK;
}

int nor_read(uint32_t addr, uint8_t *buf, size_t len)
{
    if (len == 0)
        return NOR_OK;
    if (!range_ok(addr, len))
        return NOR_EINVAL;

    send_cmd_addr(OP_READ_DATA, addr);
    spi_xfer(NULL, buf, len, 0);
    return NOR_OK;
}

int nor_erase(uint32_t addr, size_t len)
{
    if (len == 0)
        return NOR_OK;
    if (!range_ok(addr, len) || addr % NOR_SECTOR_SIZE != 0 ||
        len % NOR_SECTOR_SIZE != 0)
        return NOR_EINVAL;

    uint32_t end = addr + (uint32_t)len; /* <= NOR_SIZE, cannot overflow */
    for (uint32_t sector = addr; sector < end; sector += NOR_SECTOR_SIZE) {
        write_enable();
        send_cmd_addr(OP_SECTOR_ERASE, sector);
        spi_xfer(NULL, NULL, 0, 0); /* de-assert CS: the erase starts */

        int rc = wait_ready();
        if (rc != NOR_OK)
            return rc;
    }
    return NOR_OK;
}

int nor_write(uint32_t addr, const uint8_t *buf, size_t len)
{
    if (len == 0)
        return NOR_OK;
    if (!range_ok(addr, len))
        return NOR_EINVAL;

    while (len > 0) {
        size_t room = NOR_PAGE_SIZE - (addr % NOR_PAGE_SIZE);
        size_t chunk = len < room ? len : room;

        write_enable();
        send_cmd_addr(OP_PAGE_PROGRAM, addr);
        spi_xfer(buf, NULL, chunk, 0); /* CS de-asserted: program starts */

        int rc = wait_ready();
        if (rc != NOR_OK)
            return rc;

        addr += (uint32_t)chunk;
        buf += chunk;
        len -= chunk;
    }
    return NOR_OK;
}
