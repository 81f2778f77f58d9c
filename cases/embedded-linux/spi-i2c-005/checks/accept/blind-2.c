#include <string.h>
#include "spinor.h"

/*
 * KF25Q80 driver. Every chip access goes through spi_xfer().
 * Each status poll is a complete 2-byte Read Status command
 * (opcode 0x05 + one clocked status byte), i.e. one status read.
 */

enum {
    CMD_WREN = 0x06,  /* write enable          */
    CMD_RDSR = 0x05,  /* read status register  */
    CMD_READ = 0x03,  /* read data             */
    CMD_PP   = 0x02,  /* page program          */
    CMD_SE   = 0x20,  /* 4 KiB sector erase    */
    CMD_RDID = 0x9F   /* JEDEC id              */
};

static const uint8_t kf25q80_id[3] = { 0x5A, 0x70, 0x14 };

static int bad_range(uint32_t addr, size_t len)
{
    /* 64-bit arithmetic: addr < 2^32 and len is checked against the chip
     * size first, so the sum cannot wrap. */
    if (len > NOR_SIZE)
        return 1;
    return (uint64_t)addr + (uint64_t)len > (uint64_t)NOR_SIZE;
}

static uint8_t read_status(void)
{
    uint8_t tx[2] = { CMD_RDSR, 0x00 };
    uint8_t rx[2];

    spi_xfer(tx, rx, 2, 0);
    return rx[1];
}

static int wait_not_busy(void)
{
    unsigned n = NOR_MAX_POLLS;

    while (n-- > 0) {
        if (!(read_status() & 0x01))
            return NOR_OK;
    }
    return NOR_ETIMEOUT;
}

static void put_addr(uint8_t *p, uint32_t addr)
{
    p[0] = (uint8_t)((addr >> 16) & 0xFF);
    p[1] = (uint8_t)((addr >> 8) & 0xFF);
    p[2] = (uint8_t)(addr & 0xFF);
}

/* Write Enable, then the given program/erase command, then wait. */
static int run_write_cmd(const uint8_t *frame, size_t frame_len)
{
    static const uint8_t wren = CMD_WREN;

    spi_xfer(&wren, NULL, 1, 0);
    spi_xfer(frame, NULL, frame_len, 0);
    return wait_not_busy();
}

int nor_init(void)
{
    uint8_t tx[4] = { CMD_RDID };
    uint8_t rx[4] = { 0 };

    spi_xfer(tx, rx, 4, 0);
    return memcmp(&rx[1], kf25q80_id, sizeof kf25q80_id) == 0 ? NOR_OK : NOR_EID;
}

int nor_read(uint32_t addr, uint8_t *buf, size_t len)
{
    uint8_t hdr[4];

    if (len == 0)
        return NOR_OK;
    if (bad_range(addr, len))
        return NOR_EINVAL;

    hdr[0] = CMD_READ;
    put_addr(&hdr[1], addr);
    spi_xfer(hdr, NULL, sizeof hdr, 1);   /* keep CS for the data phase */
    spi_xfer(NULL, buf, len, 0);
    return NOR_OK;
}

int nor_erase(uint32_t addr, size_t len)
{
    if (len == 0)
        return NOR_OK;
    if (bad_range(addr, len))
        return NOR_EINVAL;
    if ((addr & (NOR_SECTOR_SIZE - 1)) || (len & (NOR_SECTOR_SIZE - 1)))
        return NOR_EINVAL;

    size_t sectors = len / NOR_SECTOR_SIZE;
    for (size_t i = 0; i < sectors; i++) {
        uint8_t frame[4];
        int rc;

        frame[0] = CMD_SE;
        put_addr(&frame[1], addr + (uint32_t)(i * NOR_SECTOR_SIZE));
        rc = run_write_cmd(frame, sizeof frame);
        if (rc != NOR_OK)
            return rc;
    }
    return NOR_OK;
}

int nor_write(uint32_t addr, const uint8_t *buf, size_t len)
{
    uint8_t frame[4 + NOR_PAGE_SIZE];
    size_t done = 0;

    if (len == 0)
        return NOR_OK;
    if (bad_range(addr, len))
        return NOR_EINVAL;

    while (done < len) {
        uint32_t a = addr + (uint32_t)done;
        uint32_t page_end = (a | (NOR_PAGE_SIZE - 1)) + 1;  /* next page */
        size_t n = page_end - a;
        int rc;

        if (n > len - done)
            n = len - done;

        frame[0] = CMD_PP;
        put_addr(&frame[1], a);
        memcpy(&frame[4], buf + done, n);

        rc = run_write_cmd(frame, 4 + n);
        if (rc != NOR_OK)
            return rc;
        done += n;
    }
    return NOR_OK;
}
