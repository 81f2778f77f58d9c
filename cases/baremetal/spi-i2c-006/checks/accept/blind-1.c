/*
 * main.c - bit-banged SPI master (mode 0, MSB first) for the TH-2 sensor hub.
 */
#include <stddef.h>
#include <stdint.h>

#include "soft_spi.h"

/* Shift one byte out on MOSI and one byte in from MISO, MSB first.
 * Entry and exit condition: CS low, SCK low. */
static uint8_t spi_xfer_byte(uint8_t out)
{
    uint8_t in = 0u;
    int bit;

    for (bit = 7; bit >= 0; bit--) {
        /* SCK is low: put the data bit on MOSI before the rising edge. */
        gpio_write(PIN_MOSI, (out >> bit) & 1u);

        /* Rising edge: the slave samples MOSI; MISO has been stable
         * since the previous falling edge (or since CS went low). */
        gpio_write(PIN_SCK, 1);
        in = (uint8_t)((in << 1) | (gpio_read(PIN_MISO) ? 1u : 0u));

        /* Falling edge: the slave shifts out its next bit. */
        gpio_write(PIN_SCK, 0);
    }
    return in;
}

void spi_transfer(const uint8_t *tx, uint8_t *rx, size_t n)
{
    size_t i;

    if (n == 0u) {
        return;
    }

    /* SCK is idle low here, so CS may change. */
    gpio_write(PIN_SCK, 0);
    gpio_write(PIN_CS, 0);

    for (i = 0u; i < n; i++) {
        uint8_t b = spi_xfer_byte(tx[i]);
        if (rx != NULL) {
            rx[i] = b;
        }
    }

    /* SCK is low after the last falling edge; end the command. */
    gpio_write(PIN_CS, 1);
}
