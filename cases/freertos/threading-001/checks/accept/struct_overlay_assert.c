#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"
#include "queue.h"

typedef struct {
	volatile uint32_t DATA;
	volatile uint32_t STATE;
	volatile uint32_t CTRL;
	volatile uint32_t INTSTATUS;
	volatile uint32_t BAUDDIV;
} cmsdk_uart_t;

#define UART0 ((cmsdk_uart_t *)0x40004000UL)

typedef struct {
	volatile uint32_t ISER[8];
	uint32_t reserved0[24];
	volatile uint32_t ICER[8];
	uint32_t reserved1[24];
	volatile uint32_t ISPR[8];
	uint32_t reserved2[24];
	volatile uint32_t ICPR[8];
	uint32_t reserved3[24];
	volatile uint32_t IABR[8];
	uint32_t reserved4[56];
	volatile uint8_t IP[240];
} nvic_t;

#define NVIC ((nvic_t *)0xE000E100UL)

static QueueHandle_t xRxQueue;
static volatile unsigned long ulDropped = 0;

void UART0RX_IRQHandler(void)
{
	BaseType_t xWoken = pdFALSE;

	UART0->INTSTATUS = 2u;
	while ((UART0->STATE & 2u) != 0u) {
		const uint8_t c = (uint8_t)(UART0->DATA & 0xFFu);
		if (xQueueSendToBackFromISR(xRxQueue, &c, &xWoken) == errQUEUE_FULL) {
			ulDropped++;
		}
	}
	portEND_SWITCHING_ISR(xWoken);
}

static void put(char c)
{
	while (UART0->STATE & 1u) {
	}
	UART0->DATA = (uint32_t)(uint8_t)c;
}

static void put_str(const char *s)
{
	for (; *s; s++) {
		put(*s);
	}
}

static void put_num(unsigned long v)
{
	char b[12];
	int i = 0;

	do {
		b[i++] = (char)('0' + (v % 10u));
		v /= 10u;
	} while (v);
	while (i) {
		put(b[--i]);
	}
}

static void prvEchoTask(void *pv)
{
	(void)pv;
	put_str("uart echo ready\r\n");
	for (;;) {
		uint8_t c;

		if (xQueueReceive(xRxQueue, &c, portMAX_DELAY) == pdTRUE) {
			put((char)c);
			if (c == '\r') {
				put_str("\ndropped=");
				put_num(ulDropped);
				put_str("\r\n");
			}
		}
	}
}

static void prvSetupUart(void)
{
	UART0->BAUDDIV = 25000000u / 115200u;
	UART0->CTRL = (1u << 0) | (1u << 1) | (1u << 3);
	NVIC->IP[0] = (uint8_t)configKERNEL_INTERRUPT_PRIORITY;
	NVIC->ISER[0] = 1u;
}

int main(void)
{
	BaseType_t xCreated;

	xRxQueue = xQueueCreate(64, sizeof(uint8_t));
	configASSERT(xRxQueue != NULL);

	xCreated = xTaskCreate(prvEchoTask, "echo", 256, NULL, 2, NULL);
	configASSERT(xCreated == pdPASS);

	prvSetupUart();
	vTaskStartScheduler();
	for (;;) {
	}
	return 0;
}
