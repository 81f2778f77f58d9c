/* sensor.c - simulated strain-gauge ADC front end (provided, not shown to the model). */
#include "FreeRTOS.h"
#include "task.h"

#include "sensor.h"

static uint32_t lcg = 20261202UL;

uint16_t sensor_convert(void)
{
	TickType_t start = xTaskGetTickCount();

	while ((TickType_t)(xTaskGetTickCount() - start) < 3U) {
	}
	lcg = lcg * 1103515245UL + 12345UL;
	return (uint16_t)((lcg >> 16) & 0x0FFFU);
}
