/* defect: the ISR passes NULL as pxHigherPriorityTaskWoken and never calls portYIELD_FROM_ISR, so the woken echo task only runs at the next tick instead of immediately.
 * breaks: "The task must not spend CPU time while no byte is pending, and it must run as soon as a byte arrives."
 * must_fail: isr_requests_context_switch
 */
#include <stdint.h>
#include <stddef.h>
#include "FreeRTOS.h"
#include "task.h"
#include "queue.h"

typedef struct {
	volatile uint32_t DATA;      /* 0x00 */
	volatile uint32_t STATE;     /* 0x04 */
	volatile uint32_t CTRL;      /* 0x08 */
	volatile uint32_t INTSTATUS; /* 0x0C, write 1 to clear */
	volatile uint32_t BAUDDIV;   /* 0x10 */
} cmsdk_uart_t;

#define UART0 ((cmsdk_uart_t *)0x40004000UL)

enum {
	STATE_TXFULL = 1u << 0,
	STATE_RXFULL = 1u << 1,
	CTRL_TXEN    = 1u << 0,
	CTRL_RXEN    = 1u << 1,
	CTRL_RXINTEN = 1u << 3,
	INT_RX       = 1u << 1,
};

#define NVIC_ISER    ((volatile uint32_t *)0xE000E100UL)
#define NVIC_IPR     ((volatile uint8_t *)0xE000E400UL)
#define UART0_RX_IRQ 0u

#define RX_QUEUE_DEPTH 64u

static QueueHandle_t xRxQueue = NULL;
static volatile UBaseType_t uxDroppedBytes = 0;

static void prvTx(uint8_t c)
{
	while ((UART0->STATE & STATE_TXFULL) != 0u) {
	}
	UART0->DATA = c;
}

static void prvTxStr(const char *s)
{
	for (; *s != '\0'; s++) {
		prvTx((uint8_t)*s);
	}
}

static void prvTxDec(UBaseType_t n)
{
	if (n >= 10u) {
		prvTxDec(n / 10u);
	}
	prvTx((uint8_t)('0' + (n % 10u)));
}

void UART0RX_IRQHandler(void)
{
	if ((UART0->INTSTATUS & INT_RX) != 0u) {
		UART0->INTSTATUS = INT_RX;
	}

	while ((UART0->STATE & STATE_RXFULL) != 0u) {
		uint8_t ucByte = (uint8_t)UART0->DATA;

		if (xQueueSendToBackFromISR(xRxQueue, &ucByte, NULL) == errQUEUE_FULL) {
			uxDroppedBytes++;
		}
	}
}

static void prvEchoTask(void *pvParameters)
{
	(void)pvParameters;

	prvTxStr("uart echo ready\r\n");

	for (;;) {
		uint8_t ucByte;

		/* Blocks (no CPU use) until the ISR posts a byte. */
		if (xQueueReceive(xRxQueue, &ucByte, portMAX_DELAY) == pdTRUE) {
			prvTx(ucByte);
			if (ucByte == (uint8_t)'\r') {
				UBaseType_t uxDropped;

				taskENTER_CRITICAL();
				uxDropped = uxDroppedBytes;
				taskEXIT_CRITICAL();

				prvTxStr("\ndropped=");
				prvTxDec(uxDropped);
				prvTxStr("\r\n");
			}
		}
	}
}

static BaseType_t prvSetupHardware(void)
{
	UART0->CTRL = 0u;
	UART0->BAUDDIV = (uint32_t)(configCPU_CLOCK_HZ / 115200UL);
	UART0->INTSTATUS = INT_RX;
	UART0->CTRL = CTRL_TXEN | CTRL_RXEN | CTRL_RXINTEN;

	/* Same logical priority as configMAX_SYSCALL_INTERRUPT_PRIORITY: allowed
	 * to call FromISR functions. */
	NVIC_IPR[UART0_RX_IRQ] = (uint8_t)configMAX_SYSCALL_INTERRUPT_PRIORITY;
	NVIC_ISER[0] = 1ul << UART0_RX_IRQ;

	return pdPASS;
}

static BaseType_t prvCreateApp(void)
{
	xRxQueue = xQueueCreate(RX_QUEUE_DEPTH, sizeof(uint8_t));
	if (xRxQueue == NULL) {
		return pdFAIL;
	}

	if (xTaskCreate(prvEchoTask, "UartEcho", configMINIMAL_STACK_SIZE * 2,
			NULL, configMAX_PRIORITIES - 1, NULL) != pdPASS) {
		vQueueDelete(xRxQueue);
		xRxQueue = NULL;
		return pdFAIL;
	}

	return pdPASS;
}

int main(void)
{
	if ((prvCreateApp() != pdPASS) || (prvSetupHardware() != pdPASS)) {
		taskDISABLE_INTERRUPTS();
		for (;;) {
		}
	}

	vTaskStartScheduler();

	/* Only reached if the idle/timer task could not be created. */
	taskDISABLE_INTERRUPTS();
	for (;;) {
	}

	return 0;
}
