/* Variant: rounding by biasing the numerator into the positive range
 * before dividing; the average is recomputed from the window each time. */
#include <stdbool.h>
#include <stdint.h>
#include "adc_cond.h"

#define SPAN_RAW (ADC_CAL_RAW_HI - ADC_CAL_RAW_LO)
#define SPAN_MV  (ADC_CAL_MV_HI - ADC_CAL_MV_LO)

int32_t adc_to_millivolts(int32_t raw)
{
	if (raw < 0) {
		return -1;
	}
	if (raw > ADC_RAW_MAX) {
		return -1;
	}
	/* mv * 2 * SPAN_RAW = 2 * (MV_LO * SPAN_RAW + (raw - RAW_LO) * SPAN_MV) */
	int64_t twice = 2 * ((int64_t)ADC_CAL_MV_LO * SPAN_RAW + (int64_t)(raw - ADC_CAL_RAW_LO) * SPAN_MV);
	int64_t den = 2 * SPAN_RAW;
	int64_t shift = 1000 * den;       /* makes the numerator positive */
	int64_t mv = (twice + SPAN_RAW + shift) / den - 1000;

	return mv < ADC_MV_MIN ? ADC_MV_MIN : (mv > ADC_MV_MAX ? ADC_MV_MAX : (int32_t)mv);
}

static struct {
	int32_t v[ADC_AVG_LEN];
	unsigned n;      /* readings since reset, saturating at ADC_AVG_LEN */
	unsigned pos;    /* slot of the next reading */
} avg;

void adc_avg_reset(void)
{
	avg.n = 0;
	avg.pos = 0;
}

int32_t adc_avg_push(int32_t millivolts)
{
	avg.v[avg.pos] = millivolts;
	avg.pos = (avg.pos == ADC_AVG_LEN - 1) ? 0 : avg.pos + 1;
	if (avg.n < ADC_AVG_LEN) {
		avg.n++;
	}
	int32_t sum = 0;
	for (unsigned i = 0; i < avg.n; i++) {
		unsigned slot = (avg.pos + ADC_AVG_LEN - 1 - i) % ADC_AVG_LEN;
		sum += avg.v[slot];
	}
	/* nearest, half up: floor((2 * sum + n) / (2 * n)) with sum >= 0 */
	return (2 * sum + (int32_t)avg.n) / (2 * (int32_t)avg.n);
}

bool adc_avg_ready(void)
{
	return avg.n >= ADC_AVG_LEN;
}
