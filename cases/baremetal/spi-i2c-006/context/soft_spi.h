/*
 * soft_spi.h - bit-banged SPI master of the TH-2 sensor hub.
 *
 * Four GPIO lines of the hub are wired to an SPI slave. The board support
 * code drives and reads them; the SPI master on top of it is yours.
 */
#ifndef SOFT_SPI_H
#define SOFT_SPI_H

#include <stddef.h>
#include <stdint.h>

/* GPIO lines wired to the slave */
#define PIN_SCK   4u   /* output: serial clock */
#define PIN_MOSI  5u   /* output: master out, slave in */
#define PIN_MISO  6u   /* input:  master in, slave out */
#define PIN_CS    7u   /* output: chip select, active low */

/* Provided by the board support code. */
void gpio_write(unsigned pin, int level);   /* drive an output: 0 low, non-zero high */
int gpio_read(unsigned pin);                /* current level of a pin: 0 or 1 */

/* Implemented by you: one SPI transaction of n bytes (full duplex).
 * tx[0..n-1] are sent, tx[0] first; the byte received while tx[i] is
 * sent is stored in rx[i]. rx may be NULL: the received bytes are then
 * discarded. */
void spi_transfer(const uint8_t *tx, uint8_t *rx, size_t n);

#endif /* SOFT_SPI_H */
