/*
 * vmon.h - supply voltage monitor of the VT-2 vehicle tracker.
 *
 * The vehicle supply reaches ADC channel 3 through a resistor divider:
 *
 *     source ---[ R_TOP 100 kOhm ]---+--- ADC pin
 *                                    |
 *                            [ R_BOTTOM 22 kOhm ]
 *                                    |
 *                                   GND
 *
 * The 12-bit ADC (raw 0..4095) uses a 3300 mV reference: a raw reading
 * stands for raw * 3300 / 4096 millivolts at the pin.
 */
#ifndef VMON_H
#define VMON_H

#include <stdint.h>

#define VMON_RAW_MAX        4095   /* largest valid raw reading */
#define VMON_VREF_MV        3300   /* ADC reference voltage, millivolts */
#define VMON_ADC_STEPS      4096   /* 2^12 */
#define VMON_R_TOP_KOHM     100    /* divider, source side */
#define VMON_R_BOTTOM_KOHM  22     /* divider, ground side */
#define VMON_AVG_LEN        4      /* readings in the moving average */
#define VMON_INVALID        (-1)   /* returned for a raw value above VMON_RAW_MAX */

/* Millivolts at the ADC pin; VMON_INVALID for raw > VMON_RAW_MAX. */
int32_t vmon_pin_mv(uint16_t raw);

/* Millivolts of the source before the divider; VMON_INVALID for raw > VMON_RAW_MAX. */
int32_t vmon_source_mv(uint16_t raw);

/* Empty the moving-average window. */
void vmon_avg_init(void);

/* Add one raw reading to the window and return the average source
 * millivolts; VMON_INVALID (and the window unchanged) for raw > VMON_RAW_MAX. */
int32_t vmon_avg_add(uint16_t raw);

#endif /* VMON_H */
