/*
 * HX-20 humidity/temperature sensor driver (hx20.h).
 */
#include <stddef.h>
#include <stdint.h>

#include "hx20.h"

static int initialised;

static uint8_t crc8(const uint8_t *d, size_t n)
{
	uint8_t crc = HX20_CRC_INIT;
	size_t i;
	int b;

	for (i = 0; i < n; i++) {
		crc ^= d[i];
		for (b = 0; b < 8; b++) {
			crc = (crc & 0x80u) ? (uint8_t)((crc << 1) ^ HX20_CRC_POLY) : (uint8_t)(crc << 1);
		}
	}
	return crc;
}

static int command(uint8_t cmd, uint8_t *rd, size_t rlen)
{
	return i2c_write_read(HX20_ADDR, &cmd, 1u, rd, rlen);
}

int hx20_init(void)
{
	uint8_t id[3];

	initialised = 0;
	if (command(HX20_CMD_RESET, NULL, 0u) != I2C_OK) {
		return HX20_ENACK;
	}
	delay_ms(HX20_RESET_MS);
	if (command(HX20_CMD_READ_ID, id, sizeof id) != I2C_OK) {
		return HX20_ENACK;
	}
	if (crc8(id, 2u) != id[2]) {
		return HX20_ECRC;
	}
	if ((((uint16_t)id[0] << 8) | id[1]) != HX20_CHIP_ID) {
		return HX20_EID;
	}
	initialised = 1;
	return HX20_OK;
}

/* round(num * raw / 65536), halves up, exactly */
static int32_t scale(uint32_t num, uint16_t raw)
{
	return (int32_t)(((uint64_t)num * raw + 32768u) >> 16);
}

int hx20_measure(struct hx20_sample *out)
{
	uint8_t d[6];
	unsigned tries;
	int32_t rh;

	if (out == NULL) {
		return HX20_EINVAL;
	}
	if (!initialised) {
		return HX20_ESTATE;
	}
	if (command(HX20_CMD_START, NULL, 0u) != I2C_OK) {
		return HX20_ENACK;
	}
	for (tries = 0; tries < HX20_MAX_FETCHES; tries++) {
		delay_ms(1u);
		if (command(HX20_CMD_FETCH, d, sizeof d) == I2C_OK) {
			break;
		}
	}
	if (tries == HX20_MAX_FETCHES) {
		return HX20_ETIMEOUT;
	}
	if (crc8(&d[0], 2u) != d[2] || crc8(&d[3], 2u) != d[5]) {
		return HX20_ECRC;
	}
	rh = scale(12500u, (uint16_t)((d[3] << 8) | d[4])) - 600;
	if (rh < 0) {
		rh = 0;
	} else if (rh > 10000) {
		rh = 10000;
	}
	out->temp_mc = scale(175000u, (uint16_t)((d[0] << 8) | d[1])) - 45000;
	out->rh_centi = (uint16_t)rh;
	return HX20_OK;
}
