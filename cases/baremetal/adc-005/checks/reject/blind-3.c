/* defect: adc_avg_reset() clears the window and the count but not the running sum, so readings from before the reset still weigh in the next averages.
 * breaks: "`adc_avg_reset()` forgets every reading pushed before."
 * must_fail: scenario_reset_forgets_readings
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
 * Round num/den (den > 0) to the nearest integer, halves toward +infinity:
 * floor((2*num + den) / (2*den)), with a real floor for negative values.
 */
static int32_t div_round_half_up(int32_t num, int32_t den)
{
    int32_t n = 2 * num + den;
    int32_t d = 2 * den;
    int32_t q = n / d;

    if ((n % d) != 0 && n < 0) {
        q -= 1;    /* C division truncates toward zero: make it a floor */
    }
    return q;
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
