#include <stddef.h>
#include <stdint.h>

#include "FreeRTOS.h"
#include "stream_buffer.h"
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

#define RX_STREAM_SIZE      128U
#define RX_TRIGGER_LEVEL    1U
#define RX_CHUNK            16U
#define LINE_MAX            64U
#define LINE_TIMEOUT_MS     200U

static StreamBufferHandle_t rx_stream;
static volatile uint32_t rx_dropped;

void UART0RX_IRQHandler(void)
{
	BaseType_t higher_priority_woken = pdFALSE;
	uint8_t chunk[RX_CHUNK];
	size_t n = 0;

	UART0_INTCLEAR = UART_INT_RX;
	while ((UART0_STATE & UART_STATE_RX_FULL) && n < RX_CHUNK) {
		chunk[n++] = (uint8_t)UART0_DATA;
	}
	if (n > 0U) {
		size_t sent = xStreamBufferSendFromISR(rx_stream, chunk, n, &higher_priority_woken);

		rx_dropped += (uint32_t)(n - sent);
	}
	portYIELD_FROM_ISR(higher_priority_woken);
}

static void uart_putc(char c)
{
	while (UART0_STATE & UART_STATE_TX_FULL) {
	}
	UART0_DATA = (uint8_t)c;
}

static void uart_write(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		uart_putc(s[i]);
	}
}

static void uart_puts(const char *s)
{
	while (*s != '\0') {
		uart_putc(*s++);
	}
}

static void line_task(void *params)
{
	char line[LINE_MAX];
	size_t len = 0;
	uint8_t buf[RX_CHUNK];

	(void)params;
	uart_puts("line reader ready\r\n");

	for (;;) {
		size_t got = xStreamBufferReceive(rx_stream, buf, sizeof(buf), pdMS_TO_TICKS(LINE_TIMEOUT_MS));

		if (got == 0U) {
			if (len > 0U) {
				uart_puts("line timeout\r\n");
				len = 0;
			}
			continue;
		}
		for (size_t i = 0; i < got; i++) {
			char ch = (char)buf[i];

			if (ch == '\r' || ch == '\n') {
				if (len > 0U) {
					uart_puts("line: ");
					uart_write(line, len);
					uart_puts("\r\n");
					len = 0;
				}
			} else if (len < LINE_MAX) {
				line[len++] = ch;
			}
		}
	}
}

int main(void)
{
	rx_stream = xStreamBufferCreate(RX_STREAM_SIZE, RX_TRIGGER_LEVEL);
	if (rx_stream == NULL) {
		for (;;) {
		}
	}

	if (xTaskCreate(line_task, "line", configMINIMAL_STACK_SIZE * 2U, NULL, tskIDLE_PRIORITY + 2U, NULL) != pdPASS) {
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
