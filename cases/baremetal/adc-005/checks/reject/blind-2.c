/* defect: the range check only rejects values above ADC_RAW_MAX; a negative raw value is converted (and clamped to 0) instead of returning -1.
 * breaks: "A raw value below 0 or above `ADC_RAW_MAX` (4095) is invalid: return -1."
 * must_fail: scenario_invalid_raw_rejected
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "adc_cond.h"

/*
 * The calibration line through (400, 100) and (3600, 3200):
 *     mv = 100 + (raw - 400) * 3100 / 3200
 * Multiplied out over the common denominator 3200:
 *     mv * 3200 = 3100 * raw + (100 * 3600 - 3200 * 400) = 3100 * raw - 920000
 * To round with halves toward +inf using only non-negative integer
 * division, the scaled value is shifted up by a whole number of millivolts
 * (OFFSET_MV) so that it is never negative, rounded, and shifted back.
 */
#define OFFSET_MV  1000   /* 1000 * 3200 = 3200000 > 920000 */

int32_t adc_to_millivolts(int32_t raw)
{
    const uint32_t den = (uint32_t)(ADC_CAL_RAW_HI - ADC_CAL_RAW_LO);
    int32_t num;
    uint32_t shifted;
    int32_t mv;

    /* Validate before any arithmetic: raw may be any int32_t. */
    if (raw > ADC_RAW_MAX) {
        return -1;
    }

    num = (ADC_CAL_MV_HI - ADC_CAL_MV_LO) * raw
        + (ADC_CAL_MV_LO * ADC_CAL_RAW_HI - ADC_CAL_MV_HI * ADC_CAL_RAW_LO);
    shifted = (uint32_t)(num + OFFSET_MV * (int32_t)den);
    mv = (int32_t)((shifted + den / 2u) / den) - OFFSET_MV;

    if (mv < ADC_MV_MIN) {
        return ADC_MV_MIN;
    }
    if (mv > ADC_MV_MAX) {
        return ADC_MV_MAX;
    }
    return mv;
}

/*
 * Running average: the window is kept oldest-first in a small array; a new
 * reading is appended, and once the window is full the oldest one is
 * shifted out. The sum is recomputed on every push (8 additions).
 */
static struct {
    int32_t  reading[ADC_AVG_LEN];
    unsigned n;          /* readings held, 0 .. ADC_AVG_LEN */
    unsigned pushed;     /* readings pushed since the last reset (saturating) */
} win;

void adc_avg_reset(void)
{
    memset(&win, 0, sizeof win);
}

int32_t adc_avg_push(int32_t millivolts)
{
    int32_t sum = 0;
    unsigned i;

    if (win.n == ADC_AVG_LEN) {
        memmove(&win.reading[0], &win.reading[1],
                (ADC_AVG_LEN - 1u) * sizeof win.reading[0]);
        win.n--;
    }
    win.reading[win.n++] = millivolts;
    if (win.pushed < ADC_AVG_LEN) {
        win.pushed++;
    }

    for (i = 0; i < win.n; i++) {
        sum += win.reading[i];
    }
    /* Readings are 0..3300, so sum >= 0: plain division rounds correctly. */
    return (int32_t)((2u * (uint32_t)sum + win.n) / (2u * win.n));
}

bool adc_avg_ready(void)
{
    return win.pushed >= ADC_AVG_LEN;
}
