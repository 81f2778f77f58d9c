#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"
#include "semphr.h"

#define UART0_DATA    (*(volatile uint32_t *)0x40004000UL)
#define UART0_STATE   (*(volatile uint32_t *)0x40004004UL)
#define UART0_CTRL    (*(volatile uint32_t *)0x40004008UL)
#define UART0_BAUDDIV (*(volatile uint32_t *)0x40004010UL)

struct window {
	uint32_t n, sum, lo, hi, dropped;
};

static SemaphoreHandle_t lock;
static struct window win = { .lo = 0xFFFFFFFFu };

static void out(const char *s)
{
	for (; *s; s++) {
		while (UART0_STATE & 1u) {
		}
		UART0_DATA = (uint32_t)(uint8_t)*s;
	}
}

static void out_num(uint32_t v)
{
	char b[11];
	int i = 10;

	b[i] = '\0';
	do {
		b[--i] = (char)('0' + v % 10u);
		v /= 10u;
	} while (v);
	out(&b[i]);
}

static void sampler(void *arg)
{
	uint32_t seed = 1u, lost = 0u;
	TickType_t next = xTaskGetTickCount();

	(void)arg;
	for (;;) {
		BaseType_t got;

		seed = seed * 1103515245u + 12345u;
		got = xSemaphoreTake(lock, 5);
		if (got != pdPASS) {
			lost++;
		} else {
			uint32_t v = (seed >> 16) & 0x3FFu;

			win.n++;
			win.sum += v;
			win.lo = v < win.lo ? v : win.lo;
			win.hi = v > win.hi ? v : win.hi;
			win.dropped += lost;
			lost = 0u;
			xSemaphoreGive(lock);
		}
		xTaskDelayUntil(&next, pdMS_TO_TICKS(10));
	}
}

static void reporter(void *arg)
{
	struct window w;

	(void)arg;
	out("stats ready\r\n");
	for (;;) {
		vTaskDelay(pdMS_TO_TICKS(500));
		if (xSemaphoreTake(lock, pdMS_TO_TICKS(10)) == pdFALSE) {
			out("stats busy\r\n");
			continue;
		}
		w = win;
		win = (struct window){ .lo = 0xFFFFFFFFu };
		xSemaphoreGive(lock);

		out("samples=");
		out_num(w.n);
		out(" avg=");
		out_num(w.n ? w.sum / w.n : 0u);
		out(" min=");
		out_num(w.n ? w.lo : 0u);
		out(" max=");
		out_num(w.hi);
		out(" dropped=");
		out_num(w.dropped);
		out("\r\n");
	}
}

int main(void)
{
	BaseType_t ok;

	UART0_BAUDDIV = 25000000u / 115200u;
	UART0_CTRL = 1u;

	lock = xSemaphoreCreateMutex();
	configASSERT(lock != NULL);

	ok = xTaskCreate(sampler, "sampler", 128, NULL, 3, NULL);
	configASSERT(ok == pdPASS);
	ok = xTaskCreate(reporter, "reporter", 256, NULL, 1, NULL);
	configASSERT(ok == pdPASS);

	vTaskStartScheduler();
	for (;;) {
	}
}
