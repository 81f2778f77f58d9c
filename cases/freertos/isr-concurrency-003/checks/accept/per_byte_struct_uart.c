#include <stdint.h>
#include <stddef.h>

#include "FreeRTOS.h"
#include "task.h"
#include "stream_buffer.h"

typedef struct {
	volatile uint32_t DATA;
	volatile uint32_t STATE;
	volatile uint32_t CTRL;
	volatile uint32_t INTCLEAR;
	volatile uint32_t BAUDDIV;
} cmsdk_uart_t;

#define UART0 ((cmsdk_uart_t *)0x40004000UL)
#define NVIC_ISER0 (*(volatile uint32_t *)0xE000E100UL)
#define NVIC_IPR0 (*(volatile uint8_t *)0xE000E400UL)

#define STREAM_BYTES 128
#define LINE_LEN 64
#define IDLE_TICKS pdMS_TO_TICKS(200)

static StreamBufferHandle_t stream;
static volatile uint32_t overflow_count;

void UART0RX_IRQHandler(void)
{
	BaseType_t woken = pdFALSE;

	UART0->INTCLEAR = 2U;
	while ((UART0->STATE & 2U) != 0U) {
		uint8_t b = (uint8_t)UART0->DATA;

		if (xStreamBufferSendFromISR(stream, &b, 1, &woken) != 1U) {
			overflow_count++;
		}
	}
	portYIELD_FROM_ISR(woken);
}

static void put(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		while (UART0->STATE & 1U) {
		}
		UART0->DATA = (uint8_t)s[i];
	}
}

static void puts_uart(const char *s)
{
	size_t n = 0;

	while (s[n] != '\0') {
		n++;
	}
	put(s, n);
}

static void reader(void *arg)
{
	char line[LINE_LEN];
	size_t used = 0;

	(void)arg;
	puts_uart("line reader ready\r\n");
	for (;;) {
		char ch;

		if (xStreamBufferReceive(stream, &ch, 1, IDLE_TICKS) == 0U) {
			if (used != 0U) {
				used = 0;
				puts_uart("line timeout\r\n");
			}
		} else if (ch == '\r' || ch == '\n') {
			if (used != 0U) {
				puts_uart("line: ");
				put(line, used);
				puts_uart("\r\n");
				used = 0;
			}
		} else if (used < LINE_LEN) {
			line[used++] = ch;
		}
	}
}

int main(void)
{
	BaseType_t ok;

	stream = xStreamBufferCreate(STREAM_BYTES, 1);
	configASSERT(stream != NULL);

	ok = xTaskCreate(reader, "reader", 256, NULL, 2, NULL);
	configASSERT(ok == pdPASS);

	UART0->BAUDDIV = 25000000U / 115200U;
	UART0->CTRL = 1U | 2U | 8U;
	NVIC_IPR0 = (uint8_t)(6U << 5);
	NVIC_ISER0 = 1U;

	vTaskStartScheduler();
	for (;;) {
	}
}
