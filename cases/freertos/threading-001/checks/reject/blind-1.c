/* defect: the UART0 IRQ priority is written unshifted (5 instead of 5 << 5), so with 3 implemented bits it reads back as 0, above configMAX_SYSCALL_INTERRUPT_PRIORITY, and the FromISR call trips configASSERT.
 * breaks: "`UART0RX_IRQHandler` hands every received byte to a task through a FreeRTOS queue of 64 bytes."
 * must_fail: L2, rx_irq_priority_configured
 */
#include <stdint.h>
#include "FreeRTOS.h"
#include "task.h"
#include "queue.h"

/* CMSDK APB UART0 */
#define UART0_BASE        0x40004000UL
#define UART0_DATA        (*(volatile uint32_t *)(UART0_BASE + 0x00))
#define UART0_STATE       (*(volatile uint32_t *)(UART0_BASE + 0x04))
#define UART0_CTRL        (*(volatile uint32_t *)(UART0_BASE + 0x08))
#define UART0_INTSTATUS   (*(volatile uint32_t *)(UART0_BASE + 0x0C))
#define UART0_INTCLEAR    (*(volatile uint32_t *)(UART0_BASE + 0x0C))
#define UART0_BAUDDIV     (*(volatile uint32_t *)(UART0_BASE + 0x10))

#define UART_STATE_TXFULL (1UL << 0)
#define UART_STATE_RXFULL (1UL << 1)
#define UART_CTRL_TXEN    (1UL << 0)
#define UART_CTRL_RXEN    (1UL << 1)
#define UART_CTRL_RXIRQEN (1UL << 3)
#define UART_INT_RX       (1UL << 1)

/* NVIC */
#define NVIC_ISER0        (*(volatile uint32_t *)0xE000E100UL)
#define NVIC_ICPR0        (*(volatile uint32_t *)0xE000E280UL)
#define NVIC_IPR_BYTE(n)  (*(volatile uint8_t *)(0xE000E400UL + (n)))
#define UART0RX_IRQn      0

#define UART_BAUD         115200UL
#define RX_QUEUE_LEN      64
#define ECHO_TASK_PRIO    (tskIDLE_PRIORITY + 2)
#define ECHO_TASK_STACK   (configMINIMAL_STACK_SIZE * 2)

static QueueHandle_t rx_queue;
static volatile uint32_t rx_dropped;

static void uart_putc(char c)
{
	while (UART0_STATE & UART_STATE_TXFULL) {
	}
	UART0_DATA = (uint32_t)(uint8_t)c;
}

static void uart_puts(const char *s)
{
	while (*s != '\0') {
		uart_putc(*s++);
	}
}

static void uart_put_u32(uint32_t v)
{
	char buf[11];
	int i = 0;

	do {
		buf[i++] = (char)('0' + (v % 10U));
		v /= 10U;
	} while (v != 0U);

	while (i > 0) {
		uart_putc(buf[--i]);
	}
}

static void uart_init(void)
{
	UART0_CTRL = 0;
	UART0_BAUDDIV = configCPU_CLOCK_HZ / UART_BAUD; /* 217 */
	UART0_INTCLEAR = UART_INT_RX;
	UART0_CTRL = UART_CTRL_TXEN | UART_CTRL_RXEN | UART_CTRL_RXIRQEN;

	NVIC_IPR_BYTE(UART0RX_IRQn) =
		(uint8_t)configLIBRARY_MAX_SYSCALL_INTERRUPT_PRIORITY;
	NVIC_ICPR0 = 1UL << UART0RX_IRQn;
	NVIC_ISER0 = 1UL << UART0RX_IRQn;
}

void UART0RX_IRQHandler(void)
{
	BaseType_t woken = pdFALSE;

	UART0_INTCLEAR = UART_INT_RX;

	while (UART0_STATE & UART_STATE_RXFULL) {
		uint8_t b = (uint8_t)(UART0_DATA & 0xFFU);

		if (xQueueSendFromISR(rx_queue, &b, &woken) != pdPASS) {
			rx_dropped++;
		}
	}

	portYIELD_FROM_ISR(woken);
}

static void echo_task(void *arg)
{
	uint8_t b;

	(void)arg;

	uart_puts("uart echo ready\r\n");

	for (;;) {
		if (xQueueReceive(rx_queue, &b, portMAX_DELAY) != pdPASS) {
			continue;
		}

		uart_putc((char)b);

		if (b == '\r') {
			uart_puts("\ndropped=");
			uart_put_u32(rx_dropped);
			uart_puts("\r\n");
		}
	}
}

int main(void)
{
	rx_queue = xQueueCreate(RX_QUEUE_LEN, sizeof(uint8_t));
	if (rx_queue == NULL) {
		goto fail;
	}

	if (xTaskCreate(echo_task, "echo", ECHO_TASK_STACK, NULL,
			ECHO_TASK_PRIO, NULL) != pdPASS) {
		goto fail;
	}

	uart_init();

	vTaskStartScheduler();

fail:
	taskDISABLE_INTERRUPTS();
	for (;;) {
	}
}
