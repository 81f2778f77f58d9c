/*
 * Accepted variant: a bit-at-a-time writer/reader over the byte array
 * instead of a 64-bit accumulator; rounding done with explicit
 * quotient/remainder corrections.
 */
#include <stdint.h>
#include <string.h>

#include "tlm.h"

struct bits {
	uint8_t *buf;
	const uint8_t *in;
	unsigned pos;
};

static void put(struct bits *b, uint32_t value, unsigned width)
{
	for (unsigned i = 0; i < width; i++, b->pos++) {
		if ((value >> i) & 1u)
			b->buf[b->pos / 8] |= (uint8_t)(1u << (b->pos % 8));
	}
}

static uint32_t take(struct bits *b, unsigned width)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < width; i++, b->pos++)
		v |= (uint32_t)((b->in[b->pos / 8] >> (b->pos % 8)) & 1u) << i;
	return v;
}

static long sat(long v, long lo, long hi)
{
	if (v < lo)
		return lo;
	if (v > hi)
		return hi;
	return v;
}

static long round_half_away(long num, long den)
{
	long q = num / den, r = num % den;

	if (2 * (r < 0 ? -r : r) >= den)
		q += num < 0 ? -1 : 1;
	return q;
}

static long floor_div(long num, long den)
{
	long q = num / den;

	if (num % den != 0 && num < 0)
		q -= 1;
	return q;
}

static long signed_from(uint32_t raw, unsigned width)
{
	return (raw & (1u << (width - 1))) ? (long)raw - (1L << width) : (long)raw;
}

int tlm_pack(const tlm_record_t *rec, uint8_t out[TLM_PACKED_SIZE])
{
	uint8_t tmp[TLM_PACKED_SIZE];
	struct bits b = { tmp, NULL, 0 };

	if (rec->mode > TLM_MODE_MAX)
		return -1;
	memset(tmp, 0, sizeof tmp);
	put(&b, rec->seq & 0x3FFu, 10);
	put(&b, (uint32_t)sat(round_half_away(rec->temperature_cC, 50), -512, 511), 10);
	put(&b, (uint32_t)sat(floor_div((long)rec->battery_mV - 2000, 10), 0, 255), 8);
	put(&b, (uint32_t)sat(rec->humidity_pct, 0, 100), 7);
	put(&b, rec->alarm ? 1u : 0u, 1);
	put(&b, rec->mode, 3);
	put(&b, (uint32_t)sat(floor_div(rec->accel_mg, 4), -4096, 4095), 13);
	memcpy(out, tmp, sizeof tmp);
	return 0;
}

int tlm_unpack(const uint8_t in[TLM_PACKED_SIZE], tlm_record_t *rec)
{
	struct bits b = { NULL, in, 0 };
	tlm_record_t r;
	uint32_t hum, mode, reserved;

	r.seq = (uint16_t)take(&b, 10);
	r.temperature_cC = (int16_t)(signed_from(take(&b, 10), 10) * 50);
	r.battery_mV = (uint16_t)(2000 + 10 * take(&b, 8));
	hum = take(&b, 7);
	r.alarm = take(&b, 1) != 0;
	mode = take(&b, 3);
	r.accel_mg = (int16_t)(signed_from(take(&b, 13), 13) * 4);
	reserved = take(&b, 4);
	if (reserved != 0 || mode > TLM_MODE_MAX || hum > 100)
		return -1;
	r.humidity_pct = (uint8_t)hum;
	r.mode = (uint8_t)mode;
	*rec = r;
	return 0;
}
