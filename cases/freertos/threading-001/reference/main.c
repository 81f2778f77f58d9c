#include <stdint.h>

#include "FreeRTOS.h"
#include "queue.h"
#include "task.h"

#define UART0_BASE      0x40004000UL
#define UART0_DATA      (*(volatile uint32_t *)(UART0_BASE + 0x00U))
#define UART0_STATE     (*(volatile uint32_t *)(UART0_BASE + 0x04U))
#define UART0_CTRL      (*(volatile uint32_t *)(UART0_BASE + 0x08U))
#define UART0_INTCLEAR  (*(volatile uint32_t *)(UART0_BASE + 0x0CU))
#define UART0_BAUDDIV   (*(volatile uint32_t *)(UART0_BASE + 0x10U))

#define UART_STATE_TX_FULL   (1UL << 0)
#define UART_STATE_RX_FULL   (1UL << 1)
#define UART_CTRL_TX_EN      (1UL << 0)
#define UART_CTRL_RX_EN      (1UL << 1)
#define UART_CTRL_RX_INT_EN  (1UL << 3)
#define UART_INT_RX          (1UL << 1)

#define UART0_RX_IRQ    0U
#define NVIC_ISER0      (*(volatile uint32_t *)0xE000E100UL)
#define NVIC_IPR        ((volatile uint8_t *)0xE000E400UL)

#define RX_QUEUE_LENGTH 64U

static QueueHandle_t rx_queue;
static volatile uint32_t rx_dropped;

void UART0RX_IRQHandler(void)
{
	BaseType_t higher_priority_woken = pdFALSE;

	UART0_INTCLEAR = UART_INT_RX;
	while (UART0_STATE & UART_STATE_RX_FULL) {
		uint8_t byte = (uint8_t)UART0_DATA;

		if (xQueueSendFromISR(rx_queue, &byte, &higher_priority_woken) != pdPASS) {
			rx_dropped++;
		}
	}
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

static void echo_task(void *params)
{
	uint8_t byte;

	(void)params;
	uart_puts("uart echo ready\r\n");

	for (;;) {
		if (xQueueReceive(rx_queue, &byte, portMAX_DELAY) != pdPASS) {
			continue;
		}
		uart_putc((char)byte);
		if (byte == '\r') {
			uart_puts("\ndropped=");
			uart_put_u32(rx_dropped);
			uart_puts("\r\n");
		}
	}
}

int main(void)
{
	rx_queue = xQueueCreate(RX_QUEUE_LENGTH, sizeof(uint8_t));
	if (rx_queue == NULL) {
		for (;;) {
		}
	}

	if (xTaskCreate(echo_task, "echo", configMINIMAL_STACK_SIZE * 2U, NULL, tskIDLE_PRIORITY + 2U, NULL) != pdPASS) {
		for (;;) {
		}
	}

	UART0_BAUDDIV = configCPU_CLOCK_HZ / 115200U;
	UART0_CTRL = UART_CTRL_TX_EN | UART_CTRL_RX_EN | UART_CTRL_RX_INT_EN;

	NVIC_IPR[UART0_RX_IRQ] = configMAX_SYSCALL_INTERRUPT_PRIORITY;
	NVIC_ISER0 = 1UL << UART0_RX_IRQ;

	vTaskStartScheduler();

	for (;;) {
	}
}
