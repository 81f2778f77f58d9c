/*
 * Echo server on UART0 of QEMU mps2-an385 (Cortex-M3), FreeRTOS V11.1.0.
 *
 * Interrupt side: UART0RX_IRQHandler drains the receiver into a 64-entry
 * queue with the FromISR API and asks for a context switch when that woke
 * the echo task.  Task side: the echo task sleeps in xQueueReceive until a
 * byte is queued, then echoes it by polling the transmitter.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"
#include "queue.h"

/* --- CMSDK APB UART0, registers addressed as 32-bit words from the base --- */
enum {
	UART_WORD_DATA = 0,     /* 0x00 */
	UART_WORD_STATE = 1,    /* 0x04 */
	UART_WORD_CTRL = 2,     /* 0x08 */
	UART_WORD_INT = 3,      /* 0x0C INTSTATUS / INTCLEAR */
	UART_WORD_BAUDDIV = 4,  /* 0x10 */
};

static volatile uint32_t *const uart0_regs = (volatile uint32_t *)0x40004000UL;

#define STATE_TXFULL    0x1UL
#define STATE_RXFULL    0x2UL
#define CTRL_TXEN       0x1UL
#define CTRL_RXEN       0x2UL
#define CTRL_RXIRQEN    0x8UL
#define INT_RX          0x2UL

#define CONSOLE_BAUD    115200UL

/* --- NVIC: set-enable words and one priority byte per external interrupt --- */
static volatile uint32_t *const nvic_iser = (volatile uint32_t *)0xE000E100UL;
static volatile uint8_t *const nvic_ipr = (volatile uint8_t *)0xE000E400UL;

#define UART0RX_IRQn    0U
/* Logical priority 6: below the kernel's syscall ceiling (5), above the tick (7). */
#define UART0RX_PRIO    6U

#define ECHO_QUEUE_LEN  64U

/* Everything the interrupt handler and the task share. */
struct echo_link {
	QueueHandle_t bytes;
	volatile uint32_t lost;
};

static struct echo_link rx_path;

void UART0RX_IRQHandler(void)
{
	BaseType_t must_yield = pdFALSE;

	uart0_regs[UART_WORD_INT] = INT_RX;

	while ((uart0_regs[UART_WORD_STATE] & STATE_RXFULL) != 0U) {
		const uint8_t in = (uint8_t)(uart0_regs[UART_WORD_DATA] & 0xFFU);

		if (xQueueSendFromISR(rx_path.bytes, &in, &must_yield) != pdTRUE) {
			rx_path.lost++;
		}
	}

	portYIELD_FROM_ISR(must_yield);
}

static void tx_byte(uint8_t b)
{
	while ((uart0_regs[UART_WORD_STATE] & STATE_TXFULL) != 0U) {
		/* wait for room in the transmit buffer */
	}
	uart0_regs[UART_WORD_DATA] = b;
}

static void tx_text(const char *text)
{
	size_t i;

	for (i = 0; text[i] != '\0'; i++) {
		tx_byte((uint8_t)text[i]);
	}
}

/* Decimal without leading zeros, most significant digit first. */
static void tx_decimal(uint32_t n)
{
	uint32_t div = 1000000000UL;
	bool started = false;

	for (; div != 0U; div /= 10U) {
		const uint32_t digit = (n / div) % 10U;

		if (digit != 0U || started || div == 1U) {
			tx_byte((uint8_t)('0' + digit));
			started = true;
		}
	}
}

static void echo_worker(void *arg)
{
	struct echo_link *const l = (struct echo_link *)arg;
	uint8_t ch;

	tx_text("uart echo ready\r\n");

	for (;;) {
		while (xQueueReceive(l->bytes, &ch, portMAX_DELAY) == pdPASS) {
			tx_byte(ch);
			if (ch != (uint8_t)'\r') {
				continue;
			}
			tx_text("\ndropped=");
			tx_decimal(l->lost);
			tx_text("\r\n");
		}
	}
}

/* Creates the kernel objects, then opens the UART interrupt path. */
static bool app_setup(void)
{
	rx_path.lost = 0U;
	rx_path.bytes = xQueueCreate(ECHO_QUEUE_LEN, sizeof(uint8_t));
	if (rx_path.bytes == NULL) {
		return false;
	}

	if (xTaskCreate(echo_worker, "echo", 2U * configMINIMAL_STACK_SIZE, &rx_path,
			tskIDLE_PRIORITY + 1U, NULL) != pdPASS) {
		return false;
	}

	uart0_regs[UART_WORD_BAUDDIV] = configCPU_CLOCK_HZ / CONSOLE_BAUD;
	uart0_regs[UART_WORD_INT] = INT_RX;
	uart0_regs[UART_WORD_CTRL] = CTRL_TXEN | CTRL_RXEN | CTRL_RXIRQEN;

	nvic_ipr[UART0RX_IRQn] = (uint8_t)(UART0RX_PRIO << (8U - configPRIO_BITS));
	nvic_iser[UART0RX_IRQn / 32U] = 1UL << (UART0RX_IRQn % 32U);

	return true;
}

int main(void)
{
	if (!app_setup()) {
		/* Out of heap: never start the scheduler. */
		taskDISABLE_INTERRUPTS();
		for (;;) {
		}
	}

	vTaskStartScheduler();

	/* Only reached if the idle task could not be created. */
	for (;;) {
	}
}
