#include <stddef.h>
#include <stdint.h>

#include "soft_spi.h"

/*
 * Software SPI master, mode 0 (CPOL = 0, CPHA = 0), MSB first.
 *
 * Per bit:   MOSI <- bit      (SCK low)
 *            SCK  <- 1        slave samples MOSI, master samples MISO
 *            SCK  <- 0        slave shifts MISO to its next bit
 * One chip-select frame per call.
 */

enum { LEVEL_LOW = 0, LEVEL_HIGH = 1 };

void spi_transfer(const uint8_t *tx, uint8_t *rx, size_t n)
{
    const uint8_t *src = tx;
    const uint8_t *end = tx + n;
    uint8_t *dst = rx;

    if (n == 0u)
        return;                         /* no pin is touched */

    gpio_write(PIN_CS, LEVEL_LOW);      /* SCK is already low here */

    while (src != end) {
        uint8_t out = *src++;
        uint8_t in = 0u;
        uint8_t mask;

        for (mask = 0x80u; mask != 0u; mask >>= 1) {
            gpio_write(PIN_MOSI, (out & mask) ? LEVEL_HIGH : LEVEL_LOW);
            gpio_write(PIN_SCK, LEVEL_HIGH);
            if (gpio_read(PIN_MISO))
                in |= mask;
            gpio_write(PIN_SCK, LEVEL_LOW);
        }

        if (dst != NULL)
            *dst++ = in;
    }

    gpio_write(PIN_CS, LEVEL_HIGH);     /* SCK low after the last bit */
}
