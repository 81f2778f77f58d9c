/* defect: MISO is read after the falling edge of SCK, when the slave has already shifted out its next bit (samples on the wrong edge).
 * breaks: "SPI mode 0: the clock idles low, the slave samples MOSI on each rising edge of SCK and changes MISO after each falling edge of SCK."
 * must_fail: scenario_miso_read_at_rising_edge
 */
#include <stddef.h>
#include <stdint.h>

#include "soft_spi.h"

/* Shift one byte out on MOSI and one byte in from MISO, MSB first. */
static uint8_t spi_xfer_byte(uint8_t out)
{
    uint8_t in = 0u;
    int bit;

    for (bit = 7; bit >= 0; bit--) {
        gpio_write(PIN_MOSI, (out >> bit) & 1u);
        gpio_write(PIN_SCK, 1);
        gpio_write(PIN_SCK, 0);
        in = (uint8_t)((in << 1) | (gpio_read(PIN_MISO) ? 1u : 0u));
    }
    return in;
}

void spi_transfer(const uint8_t *tx, uint8_t *rx, size_t n)
{
    size_t i;

    if (n == 0u) {
        return;
    }

    gpio_write(PIN_CS, 0);

    for (i = 0u; i < n; i++) {
        uint8_t b = spi_xfer_byte(tx[i]);
        if (rx != NULL) {
            rx[i] = b;
        }
    }

    gpio_write(PIN_CS, 1);
}
