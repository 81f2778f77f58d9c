/* spi-i2c-006 reference: bit-banged SPI master, mode 0, MSB first. */
#include <stddef.h>
#include <stdint.h>
#include "soft_spi.h"

static uint8_t spi_byte(uint8_t out)
{
	uint8_t in = 0;

	for (int bit = 7; bit >= 0; bit--) {
		/* SCK is low: present the bit, then clock it in on the rising edge */
		gpio_write(PIN_MOSI, (out >> bit) & 1u);
		gpio_write(PIN_SCK, 1);
		in = (uint8_t)((in << 1) | (gpio_read(PIN_MISO) ? 1u : 0u));
		gpio_write(PIN_SCK, 0);
	}
	return in;
}

void spi_transfer(const uint8_t *tx, uint8_t *rx, size_t n)
{
	if (n == 0u) {
		return;
	}
	gpio_write(PIN_SCK, 0);
	gpio_write(PIN_CS, 0);
	for (size_t i = 0; i < n; i++) {
		uint8_t in = spi_byte(tx[i]);
		if (rx != NULL) {
			rx[i] = in;
		}
	}
	gpio_write(PIN_CS, 1);
}
