/* Accepted variant: a command task and a consumer task, register structs,
 * the NVIC priority set by a read-modify-write of the IPR2 word, and the end
 * of a burst handed back to the command task through a binary semaphore. */
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"
#include "queue.h"
#include "semphr.h"

typedef struct {
	volatile uint32_t DATA, STATE, CTRL, INT, BAUDDIV;
} uart_regs_t;

typedef struct {
	volatile uint32_t CTRL, VALUE, RELOAD, INT;
} timer_regs_t;

#define UART0  ((uart_regs_t *)0x40004000u)
#define TIMER0 ((timer_regs_t *)0x40000000u)

#define NVIC_ISER ((volatile uint32_t *)0xE000E100u)
#define NVIC_IPR2 (*(volatile uint32_t *)0xE000E408u) /* IRQ 8..11, IRQ 8 in bits 7:0 */

#define TICKS_50US ((25000000u / 20000u) - 1u)

static QueueHandle_t events;
static SemaphoreHandle_t summary_printed;
static TaskHandle_t consumer_handle;

static volatile unsigned want, made, lost;
static volatile int all_made;

void TIMER0_IRQHandler(void)
{
	BaseType_t wake = pdFALSE;

	TIMER0->INT = 1u;
	if (all_made) {
		portYIELD_FROM_ISR(wake);
		return;
	}
	uint16_t seq = (uint16_t)++made;
	if (xQueueSendToBackFromISR(events, &seq, &wake) == errQUEUE_FULL) {
		++lost;
	}
	if (made >= want) {
		TIMER0->CTRL = 0u;
		all_made = 1;
	}
	portYIELD_FROM_ISR(wake);
}

static void put(const char *s)
{
	while (*s) {
		while (UART0->STATE & 1u) { }
		UART0->DATA = (uint8_t)*s++;
	}
}

static void put_num(unsigned v)
{
	char tmp[12];
	char *p = tmp + sizeof(tmp) - 1;
	*p = 0;
	do {
		*--p = (char)('0' + v % 10u);
		v /= 10u;
	} while (v);
	put(p);
}

static void consumer(void *ctx)
{
	(void)ctx;
	for (;;) {
		ulTaskNotifyTake(pdTRUE, portMAX_DELAY); /* a burst has started */
		unsigned handled = 0;
		/* all_made is read before the queue is looked at. */
		while (!(all_made && uxQueueMessagesWaiting(events) == 0u)) {
			uint16_t seq;
			if (xQueueReceive(events, &seq, 1) == pdTRUE) {
				put("event ");
				put_num(seq);
				put("\r\n");
				handled++;
				vTaskDelay(1);
			}
		}
		put("burst done: produced ");
		put_num(made);
		put(" consumed ");
		put_num(handled);
		put(" dropped ");
		put_num(lost);
		put("\r\n");
		xSemaphoreGive(summary_printed);
	}
}

static int get_line(char *out, int cap)
{
	int n = 0, overflow = 0;
	for (;;) {
		if ((UART0->STATE & 2u) == 0u) {
			vTaskDelay(pdMS_TO_TICKS(2));
			continue;
		}
		char ch = (char)UART0->DATA;
		if (ch == '\n') {
			break;
		}
		if (n < cap - 1) {
			out[n++] = ch;
		} else {
			overflow = 1;
		}
	}
	if (n && out[n - 1] == '\r') {
		n--;
	}
	out[n] = 0;
	return overflow ? -1 : n;
}

static unsigned burst_size(const char *s)
{
	const char *kw = "burst ";
	while (*kw) {
		if (*s++ != *kw++) {
			return 0;
		}
	}
	unsigned v = 0;
	int digits = 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 1000u) {
			return 0;
		}
		v = v * 10u + (unsigned)(*s - '0');
		digits++;
	}
	return (digits && v >= 1u && v <= 1000u) ? v : 0u;
}

static void commands(void *ctx)
{
	char line[40];
	(void)ctx;
	for (;;) {
		unsigned n = get_line(line, sizeof line) < 0 ? 0u : burst_size(line);
		if (n == 0u) {
			put("error\r\n");
			continue;
		}
		xQueueReset(events);
		made = 0;
		lost = 0;
		all_made = 0;
		want = n;
		xTaskNotifyGive(consumer_handle);
		TIMER0->CTRL = 0u;
		TIMER0->RELOAD = TICKS_50US;
		TIMER0->VALUE = TICKS_50US;
		TIMER0->INT = 1u;
		TIMER0->CTRL = (1u << 3) | 1u;
		xSemaphoreTake(summary_printed, portMAX_DELAY);
	}
}

int main(void)
{
	UART0->BAUDDIV = 25000000u / 115200u;
	UART0->CTRL = 3u;

	events = xQueueCreate(8, sizeof(uint16_t));
	summary_printed = xSemaphoreCreateBinary();
	if (events == NULL || summary_printed == NULL) {
		for (;;) { }
	}
	if (xTaskCreate(consumer, "cons", 256, NULL, 3, &consumer_handle) != pdPASS ||
	    xTaskCreate(commands, "cmd", 256, NULL, 2, NULL) != pdPASS) {
		for (;;) { }
	}

	NVIC_IPR2 = (NVIC_IPR2 & ~0xFFu) | (6u << (8u - configPRIO_BITS));
	NVIC_ISER[0] = 1u << 8;
	vTaskStartScheduler();
	for (;;) { }
}
