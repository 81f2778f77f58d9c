/* defect: chip select is asserted and released around every byte instead of once per transfer, so the slave sees n separate commands.
 * breaks: "`spi_transfer(tx, rx, n)` drives CS low once at the start and keeps it low for the whole transfer of all n bytes; it drives CS high again after the last byte."
 * must_fail: scenario_one_cs_frame_per_transfer
 */
#include <stddef.h>
#include <stdint.h>

#include "soft_spi.h"

/* One byte on the bus, MSB first, mode 0. */
static uint8_t spi_byte(uint8_t out)
{
    uint8_t in = 0u;
    uint8_t mask;

    gpio_write(PIN_CS, 0);
    for (mask = 0x80u; mask != 0u; mask >>= 1) {
        gpio_write(PIN_MOSI, (out & mask) ? 1 : 0);
        gpio_write(PIN_SCK, 1);
        if (gpio_read(PIN_MISO))
            in |= mask;
        gpio_write(PIN_SCK, 0);
    }
    gpio_write(PIN_CS, 1);
    return in;
}

void spi_transfer(const uint8_t *tx, uint8_t *rx, size_t n)
{
    size_t i;

    for (i = 0u; i < n; i++) {
        uint8_t in = spi_byte(tx[i]);
        if (rx != NULL)
            rx[i] = in;
    }
}
