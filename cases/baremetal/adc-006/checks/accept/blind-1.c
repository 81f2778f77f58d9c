/*
 * main.c - supply voltage monitor of the VT-2 vehicle tracker.
 *
 * Converts raw 12-bit ADC readings of the divided vehicle supply to
 * millivolts at the ADC pin and at the source, and keeps a 4-reading
 * moving average of the source millivolts. Integer arithmetic only.
 */
#include <stdint.h>
#include "vmon.h"

/* Unsigned division rounded to nearest, a half rounded up. */
static uint32_t div_round(uint32_t num, uint32_t den)
{
	return (num + den / 2u) / den;
}

static int raw_valid(uint16_t raw)
{
	return raw <= VMON_RAW_MAX;
}

int32_t vmon_pin_mv(uint16_t raw)
{
	if (!raw_valid(raw)) {
		return VMON_INVALID;
	}
	/* 4095 * 3300 = 13 513 500: fits easily in 32 bits. */
	return (int32_t)div_round((uint32_t)raw * VMON_VREF_MV, VMON_ADC_STEPS);
}

int32_t vmon_source_mv(uint16_t raw)
{
	if (!raw_valid(raw)) {
		return VMON_INVALID;
	}
	/*
	 * source = raw * Vref * (Rtop + Rbot) / (steps * Rbot)
	 * Numerator at full scale: 4095 * 3300 * 122 = 1 648 647 000, and the
	 * half-denominator added for rounding is 45 056: below 2^32.
	 */
	uint32_t num = (uint32_t)raw * VMON_VREF_MV *
		       (VMON_R_TOP_KOHM + VMON_R_BOTTOM_KOHM);
	uint32_t den = (uint32_t)VMON_ADC_STEPS * VMON_R_BOTTOM_KOHM;
	return (int32_t)div_round(num, den);
}

static int32_t window[VMON_AVG_LEN];
static unsigned next_slot;
static int window_empty = 1;

void vmon_avg_init(void)
{
	for (unsigned i = 0; i < VMON_AVG_LEN; i++) {
		window[i] = 0;
	}
	next_slot = 0;
	window_empty = 1;
}

int32_t vmon_avg_add(uint16_t raw)
{
	int32_t mv = vmon_source_mv(raw);
	uint32_t sum = 0;

	if (mv == VMON_INVALID) {
		return VMON_INVALID;
	}

	if (window_empty) {
		for (unsigned i = 0; i < VMON_AVG_LEN; i++) {
			window[i] = mv;
		}
		next_slot = 0;
		window_empty = 0;
	} else {
		window[next_slot] = mv;
		next_slot = (next_slot + 1u) % VMON_AVG_LEN;
	}

	for (unsigned i = 0; i < VMON_AVG_LEN; i++) {
		sum += (uint32_t)window[i];
	}
	return (int32_t)div_round(sum, VMON_AVG_LEN);
}
