#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"

#define TIMER0_BASE      0x40000000UL
#define TIMER0_CTRL      (*(volatile uint32_t *)(TIMER0_BASE + 0x00U))
#define TIMER0_VALUE     (*(volatile uint32_t *)(TIMER0_BASE + 0x04U))
#define TIMER0_RELOAD    (*(volatile uint32_t *)(TIMER0_BASE + 0x08U))
#define TIMER0_INTCLEAR  (*(volatile uint32_t *)(TIMER0_BASE + 0x0CU))

#define TIMER_CTRL_ENABLE  (1UL << 0)
#define TIMER_CTRL_IRQ_EN  (1UL << 3)

#define UART0_BASE       0x40004000UL
#define UART0_DATA       (*(volatile uint32_t *)(UART0_BASE + 0x00U))
#define UART0_STATE      (*(volatile uint32_t *)(UART0_BASE + 0x04U))
#define UART0_CTRL       (*(volatile uint32_t *)(UART0_BASE + 0x08U))
#define UART0_BAUDDIV    (*(volatile uint32_t *)(UART0_BASE + 0x10U))
#define UART_STATE_TX_FULL (1UL << 0)
#define UART_CTRL_TX_EN    (1UL << 0)

#define TIMER0_IRQ       8U
#define NVIC_ISER0       (*(volatile uint32_t *)0xE000E100UL)
#define NVIC_IPR         ((volatile uint8_t *)0xE000E400UL)

#define SAMPLE_PERIOD_TICKS (configCPU_CLOCK_HZ / 10U)

static TaskHandle_t sampler_task;

void TIMER0_IRQHandler(void)
{
	BaseType_t higher_priority_woken = pdFALSE;

	TIMER0_INTCLEAR = 1U;
	vTaskNotifyGiveFromISR(sampler_task, &higher_priority_woken);
	portYIELD_FROM_ISR(higher_priority_woken);
}

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

static void sampler(void *params)
{
	uint32_t events = 0;

	(void)params;
	uart_puts("sampler ready\r\n");

	for (;;) {
		uint32_t pending = ulTaskNotifyTake(pdTRUE, portMAX_DELAY);

		events += pending;
		uart_puts("timer events: ");
		uart_put_u32(events);
		if (pending > 1U) {
			uart_puts(" (coalesced)");
		}
		uart_puts("\r\n");
	}
}

int main(void)
{
	UART0_BAUDDIV = configCPU_CLOCK_HZ / 115200U;
	UART0_CTRL = UART_CTRL_TX_EN;

	if (xTaskCreate(sampler, "sampler", configMINIMAL_STACK_SIZE * 2U, NULL, tskIDLE_PRIORITY + 2U, &sampler_task) != pdPASS) {
		for (;;) {
		}
	}

	TIMER0_RELOAD = SAMPLE_PERIOD_TICKS;
	TIMER0_VALUE = SAMPLE_PERIOD_TICKS;
	TIMER0_CTRL = TIMER_CTRL_ENABLE | TIMER_CTRL_IRQ_EN;

	NVIC_IPR[TIMER0_IRQ] = configMAX_SYSCALL_INTERRUPT_PRIORITY;
	NVIC_ISER0 = 1UL << TIMER0_IRQ;

	vTaskStartScheduler();

	for (;;) {
	}
}
