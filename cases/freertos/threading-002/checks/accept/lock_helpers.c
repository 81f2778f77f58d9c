#include <stdbool.h>
#include <stdint.h>

#include "FreeRTOS.h"
#include "semphr.h"
#include "task.h"

#define UART0_DATA    (*(volatile uint32_t *)0x40004000UL)
#define UART0_STATE   (*(volatile uint32_t *)0x40004004UL)
#define UART0_CTRL    (*(volatile uint32_t *)0x40004008UL)
#define UART0_BAUDDIV (*(volatile uint32_t *)0x40004010UL)

typedef struct {
	uint32_t count, sum, min, max, dropped;
} stats_t;

static SemaphoreHandle_t g_lock;
static stats_t g_stats = { 0, 0, UINT32_MAX, 0, 0 };

static void put(const char *s)
{
	while (*s) {
		while (UART0_STATE & 1U) {
		}
		UART0_DATA = (uint8_t)*s++;
	}
}

static void put_u(uint32_t v)
{
	char buf[12];
	char *p = &buf[11];

	*p = '\0';
	do {
		*--p = (char)('0' + v % 10U);
		v /= 10U;
	} while (v);
	put(p);
}

static bool record(uint32_t value, uint32_t missed)
{
	if (xSemaphoreTake(g_lock, pdMS_TO_TICKS(10)) != pdTRUE) {
		return false;
	}
	g_stats.count++;
	g_stats.sum += value;
	if (value < g_stats.min) {
		g_stats.min = value;
	}
	if (value > g_stats.max) {
		g_stats.max = value;
	}
	g_stats.dropped += missed;
	xSemaphoreGive(g_lock);
	return true;
}

static bool snapshot_and_reset(stats_t *out)
{
	if (xSemaphoreTake(g_lock, pdMS_TO_TICKS(10)) == pdTRUE) {
		*out = g_stats;
		g_stats.count = 0;
		g_stats.sum = 0;
		g_stats.min = UINT32_MAX;
		g_stats.max = 0;
		g_stats.dropped = 0;
		xSemaphoreGive(g_lock);
		return true;
	}
	return false;
}

static void sampler_task(void *arg)
{
	TickType_t wake = xTaskGetTickCount();
	uint32_t x = 12345U, missed = 0U;

	(void)arg;
	for (;;) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		if (record(x & 0x3FFU, missed)) {
			missed = 0U;
		} else {
			missed++;
		}
		vTaskDelayUntil(&wake, pdMS_TO_TICKS(10));
	}
}

static void reporter_task(void *arg)
{
	stats_t s;

	(void)arg;
	put("stats ready\r\n");
	for (;;) {
		vTaskDelay(pdMS_TO_TICKS(500));
		if (!snapshot_and_reset(&s)) {
			put("stats busy\r\n");
			continue;
		}
		put("samples=");
		put_u(s.count);
		put(" avg=");
		put_u(s.count ? s.sum / s.count : 0U);
		put(" min=");
		put_u(s.count ? s.min : 0U);
		put(" max=");
		put_u(s.max);
		put(" dropped=");
		put_u(s.dropped);
		put("\r\n");
	}
}

int main(void)
{
	UART0_BAUDDIV = configCPU_CLOCK_HZ / 115200U;
	UART0_CTRL = 1U;

	g_lock = xSemaphoreCreateMutex();
	if (g_lock == NULL ||
	    xTaskCreate(sampler_task, "sampler", configMINIMAL_STACK_SIZE, NULL, 3, NULL) != pdPASS ||
	    xTaskCreate(reporter_task, "reporter", 2 * configMINIMAL_STACK_SIZE, NULL, 1, NULL) != pdPASS) {
		for (;;) {
		}
	}
	vTaskStartScheduler();
	for (;;) {
	}
}
