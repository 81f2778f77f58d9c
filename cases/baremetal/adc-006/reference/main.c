/*
 * Supply monitor of the VT-2 vehicle tracker: raw 12-bit ADC readings of
 * the divided vehicle supply to millivolts, and a 4-reading moving average
 * of the source voltage. Integer arithmetic only.
 */
#include <stdbool.h>
#include <stdint.h>
#include "vmon.h"

/* num / den rounded to nearest, a half up; num >= 0, den > 0. */
static uint32_t div_round(uint64_t num, uint64_t den)
{
	return (uint32_t)((num + den / 2u) / den);
}

int32_t vmon_pin_mv(uint16_t raw)
{
	if (raw > VMON_RAW_MAX) {
		return VMON_INVALID;
	}
	return (int32_t)div_round((uint64_t)raw * VMON_VREF_MV, VMON_ADC_STEPS);
}

int32_t vmon_source_mv(uint16_t raw)
{
	if (raw > VMON_RAW_MAX) {
		return VMON_INVALID;
	}
	uint64_t num = (uint64_t)raw * VMON_VREF_MV * (VMON_R_TOP_KOHM + VMON_R_BOTTOM_KOHM);
	uint64_t den = (uint64_t)VMON_ADC_STEPS * VMON_R_BOTTOM_KOHM;
	return (int32_t)div_round(num, den);
}

static int32_t window[VMON_AVG_LEN];
static unsigned oldest;
static bool filled;

void vmon_avg_init(void)
{
	filled = false;
	oldest = 0;
}

int32_t vmon_avg_add(uint16_t raw)
{
	int32_t mv = vmon_source_mv(raw);
	if (mv == VMON_INVALID) {
		return VMON_INVALID;
	}
	if (!filled) {
		for (unsigned i = 0; i < VMON_AVG_LEN; i++) {
			window[i] = mv;
		}
		oldest = 0;
		filled = true;
	} else {
		window[oldest] = mv;
		oldest = (oldest + 1u) % VMON_AVG_LEN;
	}
	uint32_t sum = 0;
	for (unsigned i = 0; i < VMON_AVG_LEN; i++) {
		sum += (uint32_t)window[i];
	}
	return (int32_t)div_round(sum, VMON_AVG_LEN);
}
