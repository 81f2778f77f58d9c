/* sensor.h - strain-gauge ADC front end of the LC-20 load cell (provided). */
#ifndef SENSOR_H
#define SENSOR_H

#include <stdint.h>

/*
 * Runs one conversion and returns the reading, 0..4095.
 *
 * A conversion keeps the CPU busy, without blocking or yielding, for 3 ticks
 * (it returns once xTaskGetTickCount() has advanced by 3 since the call).
 * It must be called from a task, never from an interrupt handler or before
 * the scheduler has started.
 */
uint16_t sensor_convert(void);

#endif /* SENSOR_H */
