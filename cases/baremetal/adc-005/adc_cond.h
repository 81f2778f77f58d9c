/*
 * adc_cond.h - sample conditioning for the supply monitor of the PM-3 board.
 *
 * The 12-bit ADC reading (raw, 0..4095) is turned into millivolts with a
 * two-point calibration measured in production, then smoothed by a running
 * average over the last 8 valid readings.
 */
#ifndef ADC_COND_H
#define ADC_COND_H

#include <stdbool.h>
#include <stdint.h>

#define ADC_RAW_MAX     4095   /* largest valid raw reading */

#define ADC_CAL_RAW_LO  400    /* calibration point 1: raw 400 reads 100 mV */
#define ADC_CAL_MV_LO   100
#define ADC_CAL_RAW_HI  3600   /* calibration point 2: raw 3600 reads 3200 mV */
#define ADC_CAL_MV_HI   3200

#define ADC_MV_MIN      0      /* clamping range of a conversion */
#define ADC_MV_MAX      3300

#define ADC_AVG_LEN     8      /* readings in the running average */

/* Convert one raw reading to millivolts; -1 for an invalid raw value. */
int32_t adc_to_millivolts(int32_t raw);

/* Forget every reading: the average starts again from nothing. */
void adc_avg_reset(void);

/* Add one converted reading (0..3300 mV) and return the new average. */
int32_t adc_avg_push(int32_t millivolts);

/* True once ADC_AVG_LEN readings were pushed since the last reset. */
bool adc_avg_ready(void);

#endif /* ADC_COND_H */
