/* defect: polling loop runs from 1 to 19, so only 19 fetches are tried before HX20_ETIMEOUT.
 * breaks: "up to 20 times (`HX20_MAX_FETCHES`) it calls `delay_ms(1)` and then the fetch; the first acknowledged fetch gives the data."
 * must_fail: scenario_poll_limit_twenty_fetches
 */
/*
 * HX-20 humidity and temperature sensor driver (GL-4 greenhouse logger).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hx20.h"

static bool hx20_ready;

/* CRC-8, polynomial 0x2F, init 0xFF, MSB first, no reflection, no final XOR. */
static uint8_t hx20_crc8(const uint8_t *data, size_t len)
{
	uint8_t crc = HX20_CRC_INIT;

	for (size_t i = 0; i < len; i++) {
		crc ^= data[i];
		for (int bit = 0; bit < 8; bit++) {
			if (crc & 0x80u)
				crc = (uint8_t)((crc << 1) ^ HX20_CRC_POLY);
			else
				crc = (uint8_t)(crc << 1);
		}
	}
	return crc;
}

/* Writes a one-byte command and optionally reads its answer. */
static int hx20_command(uint8_t cmd, uint8_t *rd, size_t rlen)
{
	return i2c_write_read(HX20_ADDR, &cmd, 1, rd, rlen);
}

/* Checks that the two-byte word at p is followed by its correct CRC byte. */
static bool hx20_word_ok(const uint8_t *p)
{
	return hx20_crc8(p, 2) == p[2];
}

static int32_t hx20_temp_mc(uint16_t st)
{
	/* 175000 * 65535 does not fit in 32 bits: use 64-bit arithmetic. */
	uint64_t scaled = ((uint64_t)175000u * st + 32768u) >> 16;

	return (int32_t)scaled - 45000;
}

static uint16_t hx20_rh_centi(uint16_t srh)
{
	uint32_t scaled = (12500u * (uint32_t)srh + 32768u) >> 16;
	int32_t rh = (int32_t)scaled - 600;

	if (rh < 0)
		rh = 0;
	else if (rh > 10000)
		rh = 10000;
	return (uint16_t)rh;
}

int hx20_init(void)
{
	uint8_t id[3];
	uint16_t chip;

	hx20_ready = false;

	if (hx20_command(HX20_CMD_RESET, NULL, 0) != I2C_OK)
		return HX20_ENACK;

	delay_ms(HX20_RESET_MS);

	if (hx20_command(HX20_CMD_READ_ID, id, sizeof(id)) != I2C_OK)
		return HX20_ENACK;

	if (!hx20_word_ok(id))
		return HX20_ECRC;

	chip = (uint16_t)(((uint16_t)id[0] << 8) | id[1]);
	if (chip != HX20_CHIP_ID)
		return HX20_EID;

	hx20_ready = true;
	return HX20_OK;
}

int hx20_measure(struct hx20_sample *out)
{
	uint8_t data[6];
	uint32_t attempt;
	bool got = false;

	if (out == NULL)
		return HX20_EINVAL;
	if (!hx20_ready)
		return HX20_ESTATE;

	if (hx20_command(HX20_CMD_START, NULL, 0) != I2C_OK)
		return HX20_ENACK;

	for (attempt = 1; attempt < HX20_MAX_FETCHES; attempt++) {
		delay_ms(1);
		if (hx20_command(HX20_CMD_FETCH, data, sizeof(data)) == I2C_OK) {
			got = true;
			break;
		}
	}
	if (!got)
		return HX20_ETIMEOUT;

	if (!hx20_word_ok(&data[0]) || !hx20_word_ok(&data[3]))
		return HX20_ECRC;

	out->temp_mc = hx20_temp_mc((uint16_t)((data[0] << 8) | data[1]));
	out->rh_centi = hx20_rh_centi((uint16_t)((data[3] << 8) | data[4]));
	return HX20_OK;
}
