#include <stdint.h>

#include "FreeRTOS.h"
#include "semphr.h"
#include "task.h"

#define UART0_BASE      0x40004000UL
#define UART0_DATA      (*(volatile uint32_t *)(UART0_BASE + 0x00U))
#define UART0_STATE     (*(volatile uint32_t *)(UART0_BASE + 0x04U))
#define UART0_CTRL      (*(volatile uint32_t *)(UART0_BASE + 0x08U))
#define UART0_BAUDDIV   (*(volatile uint32_t *)(UART0_BASE + 0x10U))

#define UART_STATE_TX_FULL  (1UL << 0)
#define UART_CTRL_TX_EN     (1UL << 0)

#define SAMPLE_PERIOD   pdMS_TO_TICKS(10)
#define REPORT_PERIOD   pdMS_TO_TICKS(500)
#define LOCK_TIMEOUT    pdMS_TO_TICKS(10)

typedef struct {
	uint32_t count;
	uint32_t sum;
	uint32_t min;
	uint32_t max;
	uint32_t dropped;
} sample_stats_t;

static SemaphoreHandle_t stats_mutex;
static sample_stats_t stats = { 0U, 0U, UINT32_MAX, 0U, 0U };

static void uart_putc(char c)
{
	while (UART0_STATE & UART_STATE_TX_FULL) {
	}
	UART0_DATA = (uint8_t)c;
}

static void uart_puts(const char *s)
{
	while (*s != '\0') {
		uart_putc(*s++);
	}
}

static void uart_put_u32(uint32_t value)
{
	char digits[10];
	unsigned int n = 0;

	do {
		digits[n++] = (char)('0' + value % 10U);
		value /= 10U;
	} while (value != 0U);
	while (n > 0U) {
		uart_putc(digits[--n]);
	}
}

static uint32_t read_sensor(void)
{
	static uint32_t lfsr = 0xACE1U;

	lfsr = (lfsr >> 1) ^ (-(lfsr & 1U) & 0xB400U);
	return lfsr & 0x3FFU;
}

static void stats_reset(void)
{
	stats.count = 0U;
	stats.sum = 0U;
	stats.min = UINT32_MAX;
	stats.max = 0U;
	stats.dropped = 0U;
}

static void sampler_task(void *params)
{
	TickType_t last_wake = xTaskGetTickCount();
	uint32_t unrecorded = 0U;

	(void)params;
	for (;;) {
		uint32_t value = read_sensor();

		if (xSemaphoreTake(stats_mutex, LOCK_TIMEOUT) == pdTRUE) {
			stats.count++;
			stats.sum += value;
			if (value < stats.min) {
				stats.min = value;
			}
			if (value > stats.max) {
				stats.max = value;
			}
			stats.dropped += unrecorded;
			xSemaphoreGive(stats_mutex);
			unrecorded = 0U;
		} else {
			unrecorded++;
		}
		vTaskDelayUntil(&last_wake, SAMPLE_PERIOD);
	}
}

static void reporter_task(void *params)
{
	sample_stats_t snap;

	(void)params;
	uart_puts("stats ready\r\n");
	for (;;) {
		vTaskDelay(REPORT_PERIOD);

		if (xSemaphoreTake(stats_mutex, LOCK_TIMEOUT) != pdTRUE) {
			uart_puts("stats busy\r\n");
			continue;
		}
		snap = stats;
		stats_reset();
		xSemaphoreGive(stats_mutex);

		uart_puts("samples=");
		uart_put_u32(snap.count);
		uart_puts(" avg=");
		uart_put_u32(snap.count != 0U ? snap.sum / snap.count : 0U);
		uart_puts(" min=");
		uart_put_u32(snap.count != 0U ? snap.min : 0U);
		uart_puts(" max=");
		uart_put_u32(snap.max);
		uart_puts(" dropped=");
		uart_put_u32(snap.dropped);
		uart_puts("\r\n");
	}
}

int main(void)
{
	UART0_BAUDDIV = configCPU_CLOCK_HZ / 115200U;
	UART0_CTRL = UART_CTRL_TX_EN;

	stats_mutex = xSemaphoreCreateMutex();
	if (stats_mutex == NULL) {
		for (;;) {
		}
	}

	if (xTaskCreate(sampler_task, "sampler", configMINIMAL_STACK_SIZE, NULL, tskIDLE_PRIORITY + 3U, NULL) != pdPASS) {
		for (;;) {
		}
	}
	if (xTaskCreate(reporter_task, "reporter", configMINIMAL_STACK_SIZE * 2U, NULL, tskIDLE_PRIORITY + 1U, NULL) != pdPASS) {
		for (;;) {
		}
	}

	vTaskStartScheduler();

	for (;;) {
	}
}
