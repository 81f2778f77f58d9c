/*
 * UART0 RX interrupt -> stream buffer -> one line-assembling task.
 *
 * The reader sleeps without a timeout while no partial line is pending and
 * with the 200 ms line timeout while one is, so an idle system never wakes
 * the task. Line state is kept in a small struct with its own helpers.
 */
#include <stddef.h>
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"
#include "stream_buffer.h"

/* Arm CMSDK APB UART0 */
#define CMSDK_UART0          0x40004000UL
#define UART_REG(off)        (*(volatile uint32_t *)(CMSDK_UART0 + (off)))
#define UART_DATA            UART_REG(0x00U)
#define UART_STATE           UART_REG(0x04U)
#define UART_CTRL            UART_REG(0x08U)
#define UART_INTSTATUS       UART_REG(0x0CU)
#define UART_BAUDDIV         UART_REG(0x10U)

#define STATE_TXFULL         0x1UL
#define STATE_RXFULL         0x2UL
#define CTRL_TXEN            0x1UL
#define CTRL_RXEN            0x2UL
#define CTRL_RXIRQEN         0x8UL
#define INT_RX               0x2UL
#define CONSOLE_BAUD         115200UL

/* NVIC: UART0 RX is IRQ 0, whose priority is byte 0 of IPR0. */
#define NVIC_SETENA0         (*(volatile uint32_t *)0xE000E100UL)
#define NVIC_IPR0            (*(volatile uint32_t *)0xE000E400UL)
#define UART0_RX_IRQN        0U
/* Lowest priority (7): well inside the range allowed to call FromISR APIs. */
#define UART0_RX_PRIO        (configLIBRARY_LOWEST_INTERRUPT_PRIORITY << (8 - configPRIO_BITS))

#define SB_STORAGE_BYTES     128U
#define SB_WAKE_LEVEL        1U
#define READ_BATCH           8U
#define LINE_CAPACITY        64U
#define LINE_IDLE_MS         200U
#define READER_PRIORITY      (tskIDLE_PRIORITY + 1U)
#define READER_STACK_WORDS   (configMINIMAL_STACK_SIZE + 96U)

typedef struct {
	size_t len;
	char text[LINE_CAPACITY];
} line_acc_t;

static StreamBufferHandle_t uart_rx_sb;
static volatile uint32_t uart_rx_lost;

/* ---- console output (polled) ---- */

static void console_send(const char *data, size_t count)
{
	while (count-- > 0U) {
		while ((UART_STATE & STATE_TXFULL) != 0U) {
			/* wait for room in the TX buffer */
		}
		UART_DATA = (uint32_t)(uint8_t)*data++;
	}
}

static void console_print(const char *text)
{
	const char *end = text;

	while (*end != '\0') {
		++end;
	}
	console_send(text, (size_t)(end - text));
}

/* ---- line assembly ---- */

static void line_reset(line_acc_t *acc)
{
	acc->len = 0U;
}

static void line_push(line_acc_t *acc, char ch)
{
	const int is_eol = (ch == '\n') || (ch == '\r');

	if (!is_eol) {
		if (acc->len < sizeof(acc->text)) {
			acc->text[acc->len] = ch;
			acc->len++;
		}
		return;
	}
	if (acc->len == 0U) {
		return; /* empty line (or the second half of CR LF) */
	}
	console_print("line: ");
	console_send(acc->text, acc->len);
	console_print("\r\n");
	line_reset(acc);
}

static void reader_task(void *unused)
{
	static line_acc_t acc;
	uint8_t batch[READ_BATCH];

	(void)unused;
	line_reset(&acc);
	console_print("line reader ready\r\n");

	for (;;) {
		const TickType_t wait = (acc.len > 0U) ? pdMS_TO_TICKS(LINE_IDLE_MS) : portMAX_DELAY;
		const size_t got = xStreamBufferReceive(uart_rx_sb, batch, sizeof(batch), wait);

		if (got > 0U) {
			for (size_t k = 0U; k < got; k++) {
				line_push(&acc, (char)batch[k]);
			}
		} else if (acc.len > 0U) {
			line_reset(&acc);
			console_print("line timeout\r\n");
		}
	}
}

/* ---- interrupt ---- */

void UART0RX_IRQHandler(void)
{
	BaseType_t need_switch = pdFALSE;

	/* Clear first: a byte arriving while we drain raises the interrupt again. */
	UART_INTSTATUS = INT_RX;
	while ((UART_STATE & STATE_RXFULL) != 0U) {
		const uint8_t byte = (uint8_t)(UART_DATA & 0xFFU);

		if (xStreamBufferSendFromISR(uart_rx_sb, &byte, sizeof(byte), &need_switch) == 0U) {
			uart_rx_lost++;
		}
	}
	portEND_SWITCHING_ISR(need_switch);
}

/* ---- start-up ---- */

static void uart0_rx_irq_setup(void)
{
	UART_BAUDDIV = configCPU_CLOCK_HZ / CONSOLE_BAUD;
	UART_CTRL = CTRL_TXEN | CTRL_RXEN | CTRL_RXIRQEN;

	NVIC_IPR0 = (NVIC_IPR0 & ~0xFFUL) | UART0_RX_PRIO;
	NVIC_SETENA0 = 1UL << UART0_RX_IRQN;
}

static BaseType_t app_setup(void)
{
	uart_rx_sb = xStreamBufferCreate(SB_STORAGE_BYTES, SB_WAKE_LEVEL);
	if (uart_rx_sb == NULL) {
		return pdFAIL;
	}

	BaseType_t created = xTaskCreate(reader_task, "reader", READER_STACK_WORDS, NULL, READER_PRIORITY, NULL);
	if (created != pdPASS) {
		return pdFAIL;
	}

	/* Kernel objects exist now, so the interrupt may start delivering. */
	uart0_rx_irq_setup();
	return pdPASS;
}

int main(void)
{
	if (app_setup() == pdPASS) {
		vTaskStartScheduler();
	}

	/* Set-up failed (or the scheduler returned): stop here. */
	taskDISABLE_INTERRUPTS();
	for (;;) {
	}
}
