/*
 * HB-7 telemetry record: packing into / unpacking from the 7-byte LSB-first
 * bit stream of tlm.h. The stream is assembled in a 64-bit integer, so field
 * placement does not depend on bit-field layout or host byte order.
 */
#include <stdbool.h>
#include <stdint.h>

#include "tlm.h"

#define SEQ_POS    0u
#define SEQ_BITS   10u
#define TEMP_POS   10u
#define TEMP_BITS  10u
#define BATT_POS   20u
#define BATT_BITS  8u
#define HUM_POS    28u
#define HUM_BITS   7u
#define ALARM_POS  35u
#define MODE_POS   36u
#define MODE_BITS  3u
#define ACC_POS    39u
#define ACC_BITS   13u
#define RSVD_POS   52u
#define RSVD_BITS  4u

static int32_t clamp(int32_t v, int32_t lo, int32_t hi)
{
	return v < lo ? lo : (v > hi ? hi : v);
}

/* x / d rounded to nearest, halves away from zero (d > 0). */
static int32_t div_round_away(int32_t x, int32_t d)
{
	return x >= 0 ? (x + d / 2) / d : -((-x + d / 2) / d);
}

/* x / d rounded toward minus infinity (d > 0). */
static int32_t div_floor(int32_t x, int32_t d)
{
	int32_t q = x / d;

	if ((x % d) != 0 && x < 0) {
		q--;
	}
	return q;
}

static uint64_t field(uint32_t raw, unsigned pos, unsigned bits)
{
	return (uint64_t)(raw & ((1u << bits) - 1u)) << pos;
}

static uint32_t get(uint64_t s, unsigned pos, unsigned bits)
{
	return (uint32_t)(s >> pos) & ((1u << bits) - 1u);
}

static int32_t sign_extend(uint32_t raw, unsigned bits)
{
	uint32_t m = 1u << (bits - 1u);

	return (int32_t)((raw ^ m) - m);
}

int tlm_pack(const tlm_record_t *rec, uint8_t out[TLM_PACKED_SIZE])
{
	uint64_t s = 0;
	int32_t temp, batt, hum, acc;
	unsigned i;

	if (rec->mode > TLM_MODE_MAX) {
		return -1;
	}
	temp = clamp(div_round_away(rec->temperature_cC, 50), -512, 511);
	batt = clamp(div_floor((int32_t)rec->battery_mV - 2000, 10), 0, 255);
	hum = clamp(rec->humidity_pct, 0, 100);
	acc = clamp(div_floor(rec->accel_mg, 4), -4096, 4095);

	s |= field(rec->seq, SEQ_POS, SEQ_BITS);
	s |= field((uint32_t)temp, TEMP_POS, TEMP_BITS);
	s |= field((uint32_t)batt, BATT_POS, BATT_BITS);
	s |= field((uint32_t)hum, HUM_POS, HUM_BITS);
	s |= field(rec->alarm ? 1u : 0u, ALARM_POS, 1u);
	s |= field(rec->mode, MODE_POS, MODE_BITS);
	s |= field((uint32_t)acc, ACC_POS, ACC_BITS);

	for (i = 0; i < TLM_PACKED_SIZE; i++) {
		out[i] = (uint8_t)(s >> (8u * i));
	}
	return 0;
}

int tlm_unpack(const uint8_t in[TLM_PACKED_SIZE], tlm_record_t *rec)
{
	uint64_t s = 0;
	unsigned i;

	for (i = 0; i < TLM_PACKED_SIZE; i++) {
		s |= (uint64_t)in[i] << (8u * i);
	}
	if (get(s, RSVD_POS, RSVD_BITS) != 0u || get(s, MODE_POS, MODE_BITS) > TLM_MODE_MAX ||
	    get(s, HUM_POS, HUM_BITS) > 100u) {
		return -1;
	}
	rec->seq = (uint16_t)get(s, SEQ_POS, SEQ_BITS);
	rec->temperature_cC = (int16_t)(sign_extend(get(s, TEMP_POS, TEMP_BITS), TEMP_BITS) * 50);
	rec->battery_mV = (uint16_t)(2000u + 10u * get(s, BATT_POS, BATT_BITS));
	rec->humidity_pct = (uint8_t)get(s, HUM_POS, HUM_BITS);
	rec->alarm = get(s, ALARM_POS, 1u) != 0u;
	rec->mode = (uint8_t)get(s, MODE_POS, MODE_BITS);
	rec->accel_mg = (int16_t)(sign_extend(get(s, ACC_POS, ACC_BITS), ACC_BITS) * 4);
	return 0;
}
