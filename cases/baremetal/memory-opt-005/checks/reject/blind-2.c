/* defect: acceleration is scaled with plain C division, which truncates toward zero instead of rounding toward minus infinity (-1 packs as 0, -5 as -1).
 * breaks: "signed two's complement, units of 4 mg: `accel_mg / 4` rounded toward minus infinity (`-1` → -1, `-4` → -1, `-5` → -2, `7` → 1)"
 * must_fail: scenario_accel_floor_division
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tlm.h"

/*
 * Bit-serial access to the 7-byte stream: stream bit n is bit (n % 8) of
 * byte (n / 8). Fields are written/read least significant bit first.
 */
static void stream_write(uint8_t *buf, unsigned start, unsigned width, uint32_t value)
{
	for (unsigned k = 0; k < width; k++) {
		unsigned n = start + k;
		uint8_t bit = (uint8_t)(1u << (n % 8u));

		if ((value >> k) & 1u)
			buf[n / 8u] |= bit;
		else
			buf[n / 8u] &= (uint8_t)~bit;
	}
}

static uint32_t stream_read(const uint8_t *buf, unsigned start, unsigned width)
{
	uint32_t value = 0;

	for (unsigned k = 0; k < width; k++) {
		unsigned n = start + k;

		if (buf[n / 8u] & (1u << (n % 8u)))
			value |= 1u << k;
	}
	return value;
}

static int32_t stream_read_signed(const uint8_t *buf, unsigned start, unsigned width)
{
	uint32_t raw = stream_read(buf, start, width);

	if (raw & (1u << (width - 1u)))
		raw |= ~((1u << width) - 1u);   /* sign-extend */
	return (int32_t)raw;
}

int tlm_pack(const tlm_record_t *rec, uint8_t out[TLM_PACKED_SIZE])
{
	uint8_t tmp[TLM_PACKED_SIZE];
	int32_t t, b, a;
	uint32_t h;

	if (rec->mode > TLM_MODE_MAX)
		return -1;

	/* temperature: 0.5 degC units, nearest, ties away from zero */
	t = rec->temperature_cC;
	t = (t < 0) ? (t - 25) / 50 : (t + 25) / 50;
	if (t > 511)
		t = 511;
	else if (t < -512)
		t = -512;

	/* battery: 10 mV steps above 2000 mV, floor */
	b = ((int32_t)rec->battery_mV < 2000) ? 0 : ((int32_t)rec->battery_mV - 2000) / 10;
	if (b > 255)
		b = 255;

	/* humidity: percent, capped at 100 */
	h = rec->humidity_pct > 100u ? 100u : rec->humidity_pct;

	/* acceleration: 4 mg units, floor (toward minus infinity) */
	a = rec->accel_mg;
	a = a / 4;
	if (a > 4095)
		a = 4095;
	else if (a < -4096)
		a = -4096;

	memset(tmp, 0, sizeof tmp);
	stream_write(tmp, 0, 10, rec->seq);            /* seq modulo 1024 */
	stream_write(tmp, 10, 10, (uint32_t)t);
	stream_write(tmp, 20, 8, (uint32_t)b);
	stream_write(tmp, 28, 7, h);
	stream_write(tmp, 35, 1, rec->alarm ? 1u : 0u);
	stream_write(tmp, 36, 3, rec->mode);
	stream_write(tmp, 39, 13, (uint32_t)a);
	stream_write(tmp, 52, 4, 0u);                  /* reserved */

	memcpy(out, tmp, TLM_PACKED_SIZE);
	return 0;
}

int tlm_unpack(const uint8_t in[TLM_PACKED_SIZE], tlm_record_t *rec)
{
	uint32_t mode, hum;

	if (stream_read(in, 52, 4) != 0u)
		return -1;
	mode = stream_read(in, 36, 3);
	hum = stream_read(in, 28, 7);
	if (mode > TLM_MODE_MAX || hum > 100u)
		return -1;

	rec->seq = (uint16_t)stream_read(in, 0, 10);
	rec->temperature_cC = (int16_t)(stream_read_signed(in, 10, 10) * 50);
	rec->battery_mV = (uint16_t)(2000 + 10 * (int32_t)stream_read(in, 20, 8));
	rec->humidity_pct = (uint8_t)hum;
	rec->alarm = stream_read(in, 35, 1) != 0u;
	rec->mode = (uint8_t)mode;
	rec->accel_mg = (int16_t)(stream_read_signed(in, 39, 13) * 4);
	return 0;
}
