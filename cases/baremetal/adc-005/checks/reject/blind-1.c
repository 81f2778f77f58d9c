/* defect: the rounding helper rounds halves away from zero, so below the first calibration point a half goes down (raw 384: 84.5 gives 84).
 * breaks: "Otherwise the reading is the straight line through the two calibration points: `mv = 100 + (raw - 400) × (3200 - 100) / (3600 - 400)` millivolts, computed exactly and rounded to the nearest integer, a half rounded up (toward +∞): 115.5 gives 116 and 84.5 gives 85, while 83.53 gives 84."
 * must_fail: scenario_conversion_rounds_half_up
 */
/*
 * main.c - sample conditioning for the PM-3 supply monitor.
 *
 * Two-point calibration of 12-bit ADC readings to millivolts and a running
 * average over the last ADC_AVG_LEN converted readings. Integer arithmetic
 * only.
 */
#include <stdbool.h>
#include <stdint.h>

#include "adc_cond.h"

/* Slope of the calibration line as an exact fraction. */
#define CAL_NUM   ((int32_t)(ADC_CAL_MV_HI - ADC_CAL_MV_LO))    /* 3100 */
#define CAL_DEN   ((int32_t)(ADC_CAL_RAW_HI - ADC_CAL_RAW_LO))  /* 3200 */

/*
 * Round num/den (den > 0) to the nearest integer: add half the divisor
 * in the direction of the sign before the (truncating) division.
 */
static int32_t div_round_half_up(int32_t num, int32_t den)
{
    if (num < 0) {
        return (num - den / 2) / den;
    }
    return (num + den / 2) / den;
}

int32_t adc_to_millivolts(int32_t raw)
{
    int32_t mv;

    if (raw < 0 || raw > ADC_RAW_MAX) {
        return -1;
    }

    /* |raw - 400| <= 3695, times 3100 stays far inside int32_t. */
    mv = ADC_CAL_MV_LO +
         div_round_half_up((raw - ADC_CAL_RAW_LO) * CAL_NUM, CAL_DEN);

    if (mv < ADC_MV_MIN) {
        mv = ADC_MV_MIN;
    } else if (mv > ADC_MV_MAX) {
        mv = ADC_MV_MAX;
    }
    return mv;
}

/* ---- running average ---------------------------------------------- */

static int32_t  avg_buf[ADC_AVG_LEN];
static uint32_t avg_next;    /* slot the next reading goes into */
static uint32_t avg_count;   /* readings in the window (0 .. ADC_AVG_LEN) */
static int32_t  avg_sum;     /* sum of the readings in the window */

void adc_avg_reset(void)
{
    uint32_t i;

    for (i = 0; i < ADC_AVG_LEN; i++) {
        avg_buf[i] = 0;
    }
    avg_next = 0;
    avg_count = 0;
    avg_sum = 0;
}

int32_t adc_avg_push(int32_t millivolts)
{
    if (avg_count == ADC_AVG_LEN) {
        avg_sum -= avg_buf[avg_next];    /* drop the oldest reading */
    } else {
        avg_count++;
    }
    avg_buf[avg_next] = millivolts;
    avg_sum += millivolts;
    avg_next = (avg_next + 1u) % ADC_AVG_LEN;

    return div_round_half_up(avg_sum, (int32_t)avg_count);
}

bool adc_avg_ready(void)
{
    return avg_count >= ADC_AVG_LEN;
}
