/* Accepted variant: configuration parsed byte by byte with a small state
 * machine, a register struct for the UART, xTaskDelayUntil with an explicit
 * start tick, samples packed into one 64-bit queue item, mean by 64-bit sum. */
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"
#include "queue.h"
#include "sensor.h"

struct cmsdk_uart {
	volatile uint32_t data;
	volatile uint32_t state;
	volatile uint32_t ctrl;
	volatile uint32_t intstatus;
	volatile uint32_t bauddiv;
};
#define UART ((struct cmsdk_uart *)0x40004000UL)

static QueueHandle_t q;
static unsigned cfg_period, cfg_count;

static void tx(char ch)
{
	while ((UART->state & 0x1U) != 0U) { }
	UART->data = (unsigned char)ch;
}

static void tx_str(const char *s)
{
	for (; *s; ++s) {
		tx(*s);
	}
}

static void tx_dec(uint32_t v)
{
	uint32_t div = 1000000000UL;
	int started = 0;
	for (; div > 0U; div /= 10U) {
		unsigned d = (unsigned)(v / div);
		v %= div;
		if (d != 0U || started || div == 1U) {
			tx((char)('0' + d));
			started = 1;
		}
	}
}

/* Returns 1 with *p, *n set for a valid line; 0 for an invalid one. */
static int read_config(unsigned *p, unsigned *n)
{
	enum { FIRST, SECOND, BAD } st = FIRST;
	uint32_t a = 0, b = 0;
	unsigned da = 0, db = 0;
	int cr = 0;

	for (;;) {
		while ((UART->state & 0x2U) == 0U) { }
		char ch = (char)UART->data;
		if (ch == '\n') {
			break;
		}
		if (cr) {
			st = BAD; /* a CR that is not right before the LF */
		}
		cr = 0;
		if (ch == '\r') {
			cr = 1;
		} else if (st == FIRST && ch >= '0' && ch <= '9') {
			if (++da > 5U) st = BAD; else a = a * 10U + (uint32_t)(ch - '0');
		} else if (st == FIRST && ch == ' ' && da > 0U) {
			st = SECOND;
		} else if (st == SECOND && ch >= '0' && ch <= '9') {
			if (++db > 5U) st = BAD; else b = b * 10U + (uint32_t)(ch - '0');
		} else {
			st = BAD;
		}
	}
	if (st != SECOND || db == 0U || a < 10U || a > 1000U || b < 1U || b > 50U) {
		return 0;
	}
	*p = (unsigned)a;
	*n = (unsigned)b;
	return 1;
}

static uint64_t pack(uint32_t k, uint32_t stamp, uint32_t value)
{
	return ((uint64_t)k << 48) | ((uint64_t)value << 32) | stamp;
}

static void sampler(void *unused)
{
	(void)unused;
	TickType_t next = 0;
	for (unsigned k = 1; k <= cfg_count; ++k) {
		xTaskDelayUntil(&next, cfg_period);
		uint32_t stamp = (uint32_t)xTaskGetTickCount();
		uint64_t item = pack(k, stamp, sensor_convert());
		xQueueSend(q, &item, portMAX_DELAY);
	}
	for (;;) {
		vTaskDelay(portMAX_DELAY);
	}
}

static void logger(void *unused)
{
	(void)unused;
	uint64_t total = 0;
	uint32_t lo = UINT32_MAX, hi = 0;
	unsigned seen = 0;
	while (seen < cfg_count) {
		uint64_t item;
		if (xQueueReceive(q, &item, portMAX_DELAY) != pdPASS) {
			continue;
		}
		uint32_t k = (uint32_t)(item >> 48), value = (uint32_t)(item >> 32) & 0xFFFFU, stamp = (uint32_t)item;
		tx_str("sample "); tx_dec(k); tx_str(" at "); tx_dec(stamp); tx_str(": "); tx_dec(value); tx_str("\r\n");
		total += value;
		lo = value < lo ? value : lo;
		hi = value > hi ? value : hi;
		seen++;
	}
	uint32_t mean = (uint32_t)((2U * total + cfg_count) / (2U * cfg_count));
	tx_str("summary: "); tx_dec(cfg_count); tx_str(" samples, min "); tx_dec(lo);
	tx_str(", max "); tx_dec(hi); tx_str(", mean "); tx_dec(mean); tx_str("\r\n");
	vTaskDelete(NULL);
}

int main(void)
{
	UART->bauddiv = 25000000U / 115200U;
	UART->ctrl = 0x3U;

	while (!read_config(&cfg_period, &cfg_count)) {
		tx_str("config error\r\n");
	}
	tx_str("config: period "); tx_dec(cfg_period); tx_str(", count "); tx_dec(cfg_count); tx_str("\r\n");

	q = xQueueCreate(4, sizeof(uint64_t));
	if (q == NULL) {
		goto stop;
	}
	if (xTaskCreate(sampler, "smp", 256, NULL, 3, NULL) != pdPASS) {
		goto stop;
	}
	if (xTaskCreate(logger, "log", 256, NULL, 2, NULL) != pdPASS) {
		goto stop;
	}
	vTaskStartScheduler();
stop:
	taskDISABLE_INTERRUPTS();
	for (;;) { }
}
