/* HX-20 driver written differently: CRC over a word with a shift
 * register per bit, rounding by division with the remainder compared
 * to half the divisor, and a status enum for the driver state. */
#include "hx20.h"

enum drv_state { DRV_OFF, DRV_READY };
static enum drv_state state = DRV_OFF;

static int word_ok(const uint8_t *p)
{
	uint16_t w = (uint16_t)((p[0] << 8) | p[1]);
	uint8_t r = HX20_CRC_INIT;
	int bit;

	for (bit = 15; bit >= 0; bit--) {
		int in = (w >> bit) & 1;
		int top = (r >> 7) & 1;
		r = (uint8_t)(r << 1);
		if (in ^ top) {
			r ^= HX20_CRC_POLY;
		}
	}
	return r == p[2];
}

static int32_t round_scaled(uint64_t k, uint32_t raw)
{
	uint64_t prod = k * raw;
	uint64_t q = prod / 65536u, rem = prod % 65536u;

	if (rem >= 32768u) {
		q++;
	}
	return (int32_t)q;
}

int hx20_init(void)
{
	uint8_t c = HX20_CMD_RESET, id[3];

	state = DRV_OFF;
	if (i2c_write_read(HX20_ADDR, &c, 1, 0, 0) != I2C_OK)
		return HX20_ENACK;
	delay_ms(1);
	delay_ms(1);
	c = HX20_CMD_READ_ID;
	if (i2c_write_read(HX20_ADDR, &c, 1, id, 3) != I2C_OK)
		return HX20_ENACK;
	if (!word_ok(id))
		return HX20_ECRC;
	if (id[0] != (HX20_CHIP_ID >> 8) || id[1] != (HX20_CHIP_ID & 0xFFu))
		return HX20_EID;
	state = DRV_READY;
	return HX20_OK;
}

int hx20_measure(struct hx20_sample *out)
{
	uint8_t c = HX20_CMD_START, buf[6];
	unsigned n = 0;
	int got = 0;
	int32_t h;

	if (!out)
		return HX20_EINVAL;
	if (state != DRV_READY)
		return HX20_ESTATE;
	if (i2c_write_read(HX20_ADDR, &c, 1, 0, 0) != I2C_OK)
		return HX20_ENACK;
	c = HX20_CMD_FETCH;
	while (!got && n++ < HX20_MAX_FETCHES) {
		delay_ms(1);
		got = i2c_write_read(HX20_ADDR, &c, 1, buf, sizeof buf) == I2C_OK;
	}
	if (!got)
		return HX20_ETIMEOUT;
	if (!word_ok(buf) || !word_ok(buf + 3))
		return HX20_ECRC;
	h = round_scaled(12500u, ((uint32_t)buf[3] << 8) | buf[4]) - 600;
	out->rh_centi = (uint16_t)(h < 0 ? 0 : h > 10000 ? 10000 : h);
	out->temp_mc = round_scaled(175000u, ((uint32_t)buf[0] << 8) | buf[1]) - 45000;
	return HX20_OK;
}
