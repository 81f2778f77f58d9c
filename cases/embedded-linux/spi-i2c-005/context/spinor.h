/* spinor.h - SPI NOR flash driver for the Kestrel KF25Q80 (1 MiB).
 *
 * The board support package provides spi_xfer(); the driver (src/main.c)
 * provides the four nor_* functions.
 */
#ifndef SPINOR_H
#define SPINOR_H

#include <stddef.h>
#include <stdint.h>

/* ---- provided by the board support package -------------------------- */

/* Full-duplex transfer of len bytes on the flash's SPI bus.
 * Chip select is asserted (if it is not already) before the first byte.
 * tx: bytes to send; NULL sends len bytes of 0x00.
 * rx: receives the len bytes clocked in; NULL discards them.
 * cs_hold: nonzero keeps chip select asserted after the last byte, so
 *          that the next spi_xfer() continues the same command; zero
 *          de-asserts chip select after the last byte, which ends the
 *          command.
 * Returns 0. len may be 0 (no bytes are clocked; chip select is still
 * handled as described). */
int spi_xfer(const uint8_t *tx, uint8_t *rx, size_t len, int cs_hold);

/* ---- provided by the driver ----------------------------------------- */

#define NOR_SIZE        0x100000u   /* 1 MiB, addresses 0x000000..0x0FFFFF */
#define NOR_PAGE_SIZE   256u
#define NOR_SECTOR_SIZE 4096u
#define NOR_MAX_POLLS   5000u       /* status reads allowed per wait */

#define NOR_OK        0
#define NOR_EINVAL   (-1)   /* range outside the chip, or misaligned erase */
#define NOR_ETIMEOUT (-2)   /* BUSY still set after NOR_MAX_POLLS reads */
#define NOR_EID      (-3)   /* JEDEC id is not 0x5A 0x70 0x14 */

int nor_init(void);
int nor_read(uint32_t addr, uint8_t *buf, size_t len);
int nor_erase(uint32_t addr, size_t len);
int nor_write(uint32_t addr, const uint8_t *buf, size_t len);

#endif
