/* defect: the CRC loop bound (w + 3 < 6) stops after the first word, so the humidity CRC is never checked.
 * breaks: "Both CRC bytes of the fetched data are checked: when either is wrong, `hx20_measure` returns `HX20_ECRC`."
 * must_fail: scenario_measurement_crc_errors
 */
/*
 * GL-4 greenhouse logger: HX-20 sensor driver.
 *
 * Single-shot measurement: START, then poll FETCH (NACKed while the
 * conversion runs) with a 1 ms pause before every attempt.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hx20.h"

enum drv_state { DRV_UNINIT = 0, DRV_READY = 1 };

static enum drv_state state = DRV_UNINIT;

static uint8_t crc_table[256];
static int crc_table_built;

static void build_crc_table(void)
{
	for (unsigned n = 0; n < 256u; n++) {
		unsigned c = n;
		for (int k = 0; k < 8; k++)
			c = (c & 0x80u) ? ((c << 1) ^ HX20_CRC_POLY) : (c << 1);
		crc_table[n] = (uint8_t)c;
	}
	crc_table_built = 1;
}

/* CRC of one word (MSB, LSB) as the HX-20 computes it. */
static uint8_t word_crc(uint8_t msb, uint8_t lsb)
{
	uint8_t c = HX20_CRC_INIT;

	if (!crc_table_built)
		build_crc_table();
	c = crc_table[c ^ msb];
	c = crc_table[c ^ lsb];
	return c;
}

int hx20_init(void)
{
	const uint8_t reset_cmd[1] = { HX20_CMD_RESET };
	const uint8_t id_cmd[1] = { HX20_CMD_READ_ID };
	uint8_t rx[3];

	/* Whatever happens below, only success re-arms the driver. */
	state = DRV_UNINIT;

	if (i2c_write_read(HX20_ADDR, reset_cmd, sizeof reset_cmd, NULL, 0) != I2C_OK)
		return HX20_ENACK;

	delay_ms(2); /* HX20_RESET_MS: the sensor NACKs everything meanwhile */

	if (i2c_write_read(HX20_ADDR, id_cmd, sizeof id_cmd, rx, sizeof rx) != I2C_OK)
		return HX20_ENACK;

	if (word_crc(rx[0], rx[1]) != rx[2])
		return HX20_ECRC;

	if ((((unsigned)rx[0] << 8) | rx[1]) != HX20_CHIP_ID)
		return HX20_EID;

	state = DRV_READY;
	return HX20_OK;
}

int hx20_measure(struct hx20_sample *out)
{
	const uint8_t start_cmd = HX20_CMD_START;
	const uint8_t fetch_cmd = HX20_CMD_FETCH;
	uint8_t rx[6];
	unsigned tries = HX20_MAX_FETCHES;
	int rc;
	int64_t st, srh, t, rh;
	struct hx20_sample s;

	if (!out)
		return HX20_EINVAL;
	if (state != DRV_READY)
		return HX20_ESTATE;

	if (i2c_write_read(HX20_ADDR, &start_cmd, 1, NULL, 0) != I2C_OK)
		return HX20_ENACK;

	do {
		delay_ms(1);
		rc = i2c_write_read(HX20_ADDR, &fetch_cmd, 1, rx, sizeof rx);
	} while (rc != I2C_OK && --tries > 0);

	if (rc != I2C_OK)
		return HX20_ETIMEOUT;

	/* Each word is MSB, LSB, CRC. */
	for (size_t w = 0; w + 3 < sizeof rx; w += 3) {
		if (word_crc(rx[w], rx[w + 1]) != rx[w + 2])
			return HX20_ECRC;
	}

	st = ((int64_t)rx[0] << 8) | rx[1];
	srh = ((int64_t)rx[3] << 8) | rx[4];

	/* Round half up: add half the divisor before the (non-negative) division. */
	t = (st * 175000 + 32768) / 65536 - 45000;
	rh = (srh * 12500 + 32768) / 65536 - 600;
	if (rh < 0)
		rh = 0;
	if (rh > 10000)
		rh = 10000;

	s.temp_mc = (int32_t)t;
	s.rh_centi = (uint16_t)rh;
	memcpy(out, &s, sizeof s);
	return HX20_OK;
}
