#include <stdint.h>

#include "FreeRTOS.h"
#include "semphr.h"
#include "task.h"

typedef struct {
	volatile uint32_t CTRL;
	volatile uint32_t VALUE;
	volatile uint32_t RELOAD;
	volatile uint32_t INTCLEAR;
} cmsdk_timer_t;

typedef struct {
	volatile uint32_t DATA;
	volatile uint32_t STATE;
	volatile uint32_t CTRL;
	volatile uint32_t INTSTATUS;
	volatile uint32_t BAUDDIV;
} cmsdk_uart_t;

#define TIMER0 ((cmsdk_timer_t *)0x40000000UL)
#define UART0  ((cmsdk_uart_t *)0x40004000UL)

static SemaphoreHandle_t tick_sem;

void TIMER0_IRQHandler(void)
{
	BaseType_t woken = pdFALSE;

	TIMER0->INTCLEAR = 1u;
	xSemaphoreGiveFromISR(tick_sem, &woken);
	portEND_SWITCHING_ISR(woken);
}

static void out(const char *s)
{
	for (; *s; s++) {
		while (UART0->STATE & 1u) {
		}
		UART0->DATA = (uint32_t)*s;
	}
}

static void out_num(unsigned long v)
{
	char buf[12];
	int i = (int)sizeof(buf) - 1;

	buf[i] = '\0';
	do {
		buf[--i] = (char)('0' + (v % 10u));
		v /= 10u;
	} while (v != 0u);
	out(&buf[i]);
}

static void sampler(void *arg)
{
	unsigned long total = 0;

	(void)arg;
	for (;;) {
		if (xSemaphoreTake(tick_sem, portMAX_DELAY) == pdTRUE) {
			total++;
			out("timer events: ");
			out_num(total);
			out("\r\n");
		}
	}
}

int main(void)
{
	UART0->BAUDDIV = configCPU_CLOCK_HZ / 115200u;
	UART0->CTRL = 1u;

	tick_sem = xSemaphoreCreateCounting(32, 0);
	configASSERT(tick_sem != NULL);
	configASSERT(xTaskCreate(sampler, "sampler", 256, NULL, tskIDLE_PRIORITY + 1, NULL) == pdPASS);

	TIMER0->RELOAD = configCPU_CLOCK_HZ / 10u;
	TIMER0->VALUE = configCPU_CLOCK_HZ / 10u;
	TIMER0->CTRL = (1u << 3) | 1u;

	*(volatile uint8_t *)(0xE000E400UL + 8u) = (uint8_t)(6u << (8u - configPRIO_BITS));
	*(volatile uint32_t *)0xE000E100UL = 1u << 8;

	vTaskStartScheduler();
	for (;;) {
	}
}
