/* defect: each bit lowers SCK first and raises it last, so after the final bit SCK is still high when CS is driven high (SCK is only lowered afterwards).
 * breaks: "SCK must be low whenever CS changes level, and when `spi_transfer()` returns CS is high and SCK is low."
 * must_fail: scenario_clock_idles_low
 */
#include <stddef.h>
#include <stdint.h>

#include "soft_spi.h"

void spi_transfer(const uint8_t *tx, uint8_t *rx, size_t n)
{
    size_t i;

    if (n == 0u)
        return;

    gpio_write(PIN_CS, 0);

    for (i = 0u; i < n; i++) {
        uint8_t out = tx[i];
        uint8_t in = 0u;
        int bit;

        for (bit = 7; bit >= 0; bit--) {
            /* falling edge (slave shifts MISO), set up MOSI, rising edge */
            gpio_write(PIN_SCK, 0);
            gpio_write(PIN_MOSI, (out >> bit) & 1);
            gpio_write(PIN_SCK, 1);
            in = (uint8_t)((in << 1) | (gpio_read(PIN_MISO) & 1));
        }

        if (rx != NULL)
            rx[i] = in;
    }

    gpio_write(PIN_CS, 1);
    gpio_write(PIN_SCK, 0);
}
