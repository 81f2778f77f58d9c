/*
 * Supply-monitor sample conditioning (adc_cond.h): two-point calibration
 * with round-half-up and clamping, and an 8-reading running average.
 * Integer arithmetic only.
 */
#include <stdbool.h>
#include <stdint.h>
#include "adc_cond.h"

/* floor(num / den) for den > 0, whatever the sign of num. */
static int32_t floor_div(int32_t num, int32_t den)
{
	int32_t q = num / den;

	if ((num % den) != 0 && num < 0) {
		q--;
	}
	return q;
}

int32_t adc_to_millivolts(int32_t raw)
{
	if (raw < 0 || raw > ADC_RAW_MAX) {
		return -1;
	}
	const int32_t span_mv = ADC_CAL_MV_HI - ADC_CAL_MV_LO;
	const int32_t span_raw = ADC_CAL_RAW_HI - ADC_CAL_RAW_LO;
	int32_t num = (raw - ADC_CAL_RAW_LO) * span_mv;   /* |num| < 2^24 */
	/* nearest, a half rounded up: floor(x + 1/2) */
	int32_t mv = ADC_CAL_MV_LO + floor_div(2 * num + span_raw, 2 * span_raw);

	if (mv < ADC_MV_MIN) {
		mv = ADC_MV_MIN;
	} else if (mv > ADC_MV_MAX) {
		mv = ADC_MV_MAX;
	}
	return mv;
}

static int32_t window[ADC_AVG_LEN];
static uint32_t filled;
static uint32_t head;
static int32_t total;

void adc_avg_reset(void)
{
	filled = 0;
	head = 0;
	total = 0;
}

int32_t adc_avg_push(int32_t millivolts)
{
	if (filled == ADC_AVG_LEN) {
		total -= window[head];
	} else {
		filled++;
	}
	window[head] = millivolts;
	total += millivolts;
	head = (head + 1u) % ADC_AVG_LEN;
	return (total + (int32_t)(filled / 2u)) / (int32_t)filled;
}

bool adc_avg_ready(void)
{
	return filled == ADC_AVG_LEN;
}
