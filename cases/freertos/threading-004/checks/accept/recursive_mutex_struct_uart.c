/* Accepted variant: a recursive mutex, a register struct for the UART, tick
 * stamps formatted into a buffer, priorities relative to tskIDLE_PRIORITY and
 * creation results held with configASSERT. */
#include <stddef.h>
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"
#include "semphr.h"

typedef struct {
	volatile uint32_t DATA;
	volatile uint32_t STATE;
	volatile uint32_t CTRL;
	volatile uint32_t INTSTATUS;
	volatile uint32_t BAUDDIV;
} cmsdk_uart_t;

#define CONSOLE ((cmsdk_uart_t *)0x40004000UL)

enum { PRIO_LOW = tskIDLE_PRIORITY + 1, PRIO_MEDIUM = tskIDLE_PRIORITY + 2, PRIO_HIGH = tskIDLE_PRIORITY + 3 };

static SemaphoreHandle_t cal_mutex;
static uint16_t cal_table[32];

static void console_line(const char *prefix, TickType_t stamp)
{
	char digits[12];
	size_t n = sizeof(digits);
	uint32_t v = (uint32_t)stamp;

	digits[--n] = '\0';
	do {
		digits[--n] = (char)('0' + (v % 10U));
		v /= 10U;
	} while (v > 0U);

	for (const char *p = prefix; *p; p++) {
		while (CONSOLE->STATE & 1U) { }
		CONSOLE->DATA = (uint32_t)(unsigned char)*p;
	}
	for (const char *p = &digits[n]; *p; p++) {
		while (CONSOLE->STATE & 1U) { }
		CONSOLE->DATA = (uint32_t)(unsigned char)*p;
	}
	for (const char *p = "\r\n"; *p; p++) {
		while (CONSOLE->STATE & 1U) { }
		CONSOLE->DATA = (uint32_t)(unsigned char)*p;
	}
}

static void busy_for(TickType_t from, TickType_t span, unsigned seed)
{
	while (xTaskGetTickCount() - from < span) {
		cal_table[seed++ % 32U] ^= (uint16_t)seed;
	}
}

static void park(void)
{
	for (;;) {
		vTaskDelay(portMAX_DELAY);
	}
}

static void vLow(void *pv)
{
	(void)pv;
	if (xSemaphoreTakeRecursive(cal_mutex, portMAX_DELAY) == pdTRUE) {
		const TickType_t got = xTaskGetTickCount();
		console_line("low: lock taken at ", got);
		busy_for(got, 50, 1U);
		console_line("low: releasing at ", xTaskGetTickCount());
		xSemaphoreGiveRecursive(cal_mutex);
		console_line("low: done at ", xTaskGetTickCount());
	}
	park();
}

static void vMedium(void *pv)
{
	(void)pv;
	vTaskDelay(pdMS_TO_TICKS(20));
	const TickType_t began = xTaskGetTickCount();
	console_line("medium: running at ", began);
	busy_for(began, 200, 7U);
	console_line("medium: finished at ", xTaskGetTickCount());
	park();
}

static void vHigh(void *pv)
{
	(void)pv;
	vTaskDelay(pdMS_TO_TICKS(10));
	console_line("high: waiting at ", xTaskGetTickCount());
	BaseType_t got = xSemaphoreTakeRecursive(cal_mutex, pdMS_TO_TICKS(100));
	if (got != pdTRUE) {
		console_line("high: timeout at ", xTaskGetTickCount());
	} else {
		console_line("high: lock taken at ", xTaskGetTickCount());
		xSemaphoreGiveRecursive(cal_mutex);
	}
	park();
}

int main(void)
{
	CONSOLE->BAUDDIV = 25000000UL / 115200UL;
	CONSOLE->CTRL = 1U;

	cal_mutex = xSemaphoreCreateRecursiveMutex();
	configASSERT(cal_mutex != NULL);

	BaseType_t ok = xTaskCreate(vHigh, "high", 256, NULL, PRIO_HIGH, NULL);
	configASSERT(ok == pdPASS);
	ok = xTaskCreate(vMedium, "medium", 256, NULL, PRIO_MEDIUM, NULL);
	configASSERT(ok == pdPASS);
	ok = xTaskCreate(vLow, "low", 256, NULL, PRIO_LOW, NULL);
	configASSERT(ok == pdPASS);

	vTaskStartScheduler();
	for (;;) { }
}
