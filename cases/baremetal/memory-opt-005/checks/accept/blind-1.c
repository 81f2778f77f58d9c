/*
 * tlm.c - pack/unpack of the HB-7 hive monitor telemetry record.
 *
 * The 56-bit stream is assembled in a 64-bit accumulator: stream bit n is
 * bit n of the accumulator, and byte k of the output holds accumulator
 * bits 8k..8k+7. This makes the layout independent of host byte order.
 */
#include <stdbool.h>
#include <stdint.h>

#include "tlm.h"

#define SEQ_POS     0u
#define SEQ_BITS    10u
#define TEMP_POS    10u
#define TEMP_BITS   10u
#define BATT_POS    20u
#define BATT_BITS   8u
#define HUM_POS     28u
#define HUM_BITS    7u
#define ALARM_POS   35u
#define ALARM_BITS  1u
#define MODE_POS    36u
#define MODE_BITS   3u
#define ACCEL_POS   39u
#define ACCEL_BITS  13u
#define RSVD_POS    52u
#define RSVD_BITS   4u

#define TEMP_MIN    (-512)
#define TEMP_MAX    511
#define BATT_MAX    255
#define HUM_MAX     100
#define ACCEL_MIN   (-4096)
#define ACCEL_MAX   4095

static int32_t clamp_i32(int32_t v, int32_t lo, int32_t hi)
{
	if (v < lo)
		return lo;
	if (v > hi)
		return hi;
	return v;
}

static uint64_t field_mask(unsigned bits)
{
	return ((uint64_t)1 << bits) - 1u;
}

static void put_field(uint64_t *acc, unsigned pos, unsigned bits, uint32_t raw)
{
	*acc |= ((uint64_t)raw & field_mask(bits)) << pos;
}

static uint32_t get_field(uint64_t acc, unsigned pos, unsigned bits)
{
	return (uint32_t)((acc >> pos) & field_mask(bits));
}

static int32_t sign_extend(uint32_t raw, unsigned bits)
{
	uint32_t sign = 1u << (bits - 1u);
	return (int32_t)(raw ^ sign) - (int32_t)sign;
}

/* temperature_cC / 50, nearest, halves away from zero */
static int32_t temp_to_raw(int16_t cC)
{
	int32_t v = cC;
	int32_t q;

	if (v >= 0)
		q = (v + 25) / 50;
	else
		q = -((-v + 25) / 50);
	return clamp_i32(q, TEMP_MIN, TEMP_MAX);
}

/* (battery_mV - 2000) / 10, rounded down */
static int32_t batt_to_raw(uint16_t mV)
{
	int32_t v = (int32_t)mV - 2000;

	if (v < 0)
		return 0;
	return clamp_i32(v / 10, 0, BATT_MAX);
}

/* accel_mg / 4, rounded toward minus infinity */
static int32_t accel_to_raw(int16_t mg)
{
	int32_t v = mg;
	int32_t q = v / 4;

	if ((v % 4) != 0 && v < 0)
		q -= 1;
	return clamp_i32(q, ACCEL_MIN, ACCEL_MAX);
}

int tlm_pack(const tlm_record_t *rec, uint8_t out[TLM_PACKED_SIZE])
{
	uint64_t acc = 0;
	uint32_t hum;
	unsigned i;

	if (rec->mode > TLM_MODE_MAX)
		return -1;

	hum = rec->humidity_pct;
	if (hum > HUM_MAX)
		hum = HUM_MAX;

	put_field(&acc, SEQ_POS, SEQ_BITS, rec->seq);
	put_field(&acc, TEMP_POS, TEMP_BITS, (uint32_t)temp_to_raw(rec->temperature_cC));
	put_field(&acc, BATT_POS, BATT_BITS, (uint32_t)batt_to_raw(rec->battery_mV));
	put_field(&acc, HUM_POS, HUM_BITS, hum);
	put_field(&acc, ALARM_POS, ALARM_BITS, rec->alarm ? 1u : 0u);
	put_field(&acc, MODE_POS, MODE_BITS, rec->mode);
	put_field(&acc, ACCEL_POS, ACCEL_BITS, (uint32_t)accel_to_raw(rec->accel_mg));
	/* reserved bits 52..55 stay 0 */

	for (i = 0; i < TLM_PACKED_SIZE; i++)
		out[i] = (uint8_t)(acc >> (8u * i));
	return 0;
}

int tlm_unpack(const uint8_t in[TLM_PACKED_SIZE], tlm_record_t *rec)
{
	uint64_t acc = 0;
	uint32_t hum, mode;
	tlm_record_t r;
	unsigned i;

	for (i = 0; i < TLM_PACKED_SIZE; i++)
		acc |= (uint64_t)in[i] << (8u * i);

	if (get_field(acc, RSVD_POS, RSVD_BITS) != 0u)
		return -1;
	mode = get_field(acc, MODE_POS, MODE_BITS);
	if (mode > TLM_MODE_MAX)
		return -1;
	hum = get_field(acc, HUM_POS, HUM_BITS);
	if (hum > HUM_MAX)
		return -1;

	r.seq = (uint16_t)get_field(acc, SEQ_POS, SEQ_BITS);
	r.temperature_cC = (int16_t)(sign_extend(get_field(acc, TEMP_POS, TEMP_BITS), TEMP_BITS) * 50);
	r.battery_mV = (uint16_t)(2000u + 10u * get_field(acc, BATT_POS, BATT_BITS));
	r.humidity_pct = (uint8_t)hum;
	r.alarm = get_field(acc, ALARM_POS, ALARM_BITS) != 0u;
	r.mode = (uint8_t)mode;
	r.accel_mg = (int16_t)(sign_extend(get_field(acc, ACCEL_POS, ACCEL_BITS), ACCEL_BITS) * 4);

	*rec = r;
	return 0;
}
