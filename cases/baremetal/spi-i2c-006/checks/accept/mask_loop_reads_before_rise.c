/*
 * Accepted variant: a mask loop over the bits; MISO is read while SCK is
 * still low (it is stable from the previous falling edge up to the next
 * one), then the rising edge clocks MOSI into the slave. A NULL rx is
 * handled by receiving into a scratch byte.
 */
#include "soft_spi.h"

enum { LOW = 0, HIGH = 1 };

void spi_transfer(const uint8_t *tx, uint8_t *rx, size_t n)
{
	size_t left = n;
	const uint8_t *src = tx;
	uint8_t scratch;

	if (left == 0) {
		return;
	}
	gpio_write(PIN_CS, LOW);
	while (left-- > 0) {
		uint8_t *dst = rx ? rx++ : &scratch;
		uint8_t got = 0;
		uint8_t mask = 0x80;
		while (mask != 0) {
			gpio_write(PIN_MOSI, (*src & mask) ? HIGH : LOW);
			if (gpio_read(PIN_MISO)) {
				got |= mask;
			}
			gpio_write(PIN_SCK, HIGH);
			gpio_write(PIN_SCK, LOW);
			mask >>= 1;
		}
		*dst = got;
		src++;
	}
	gpio_write(PIN_CS, HIGH);
}
