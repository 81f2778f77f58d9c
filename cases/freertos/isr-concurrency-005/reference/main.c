#include <stdbool.h>
#include <stdint.h>

#include "FreeRTOS.h"
#include "queue.h"
#include "task.h"

#define UART0_BASE    0x40004000UL
#define UART0_DATA    (*(volatile uint32_t *)(UART0_BASE + 0x00U))
#define UART0_STATE   (*(volatile uint32_t *)(UART0_BASE + 0x04U))
#define UART0_CTRL    (*(volatile uint32_t *)(UART0_BASE + 0x08U))
#define UART0_BAUDDIV (*(volatile uint32_t *)(UART0_BASE + 0x10U))

#define UART_STATE_TX_FULL (1UL << 0)
#define UART_STATE_RX_FULL (1UL << 1)
#define UART_CTRL_TX_EN    (1UL << 0)
#define UART_CTRL_RX_EN    (1UL << 1)

#define TIMER0_BASE     0x40000000UL
#define TIMER0_CTRL     (*(volatile uint32_t *)(TIMER0_BASE + 0x00U))
#define TIMER0_VALUE    (*(volatile uint32_t *)(TIMER0_BASE + 0x04U))
#define TIMER0_RELOAD   (*(volatile uint32_t *)(TIMER0_BASE + 0x08U))
#define TIMER0_INTCLEAR (*(volatile uint32_t *)(TIMER0_BASE + 0x0CU))

#define TIMER_CTRL_EN     (1UL << 0)
#define TIMER_CTRL_IRQEN  (1UL << 3)
#define TIMER_INT         (1UL << 0)

#define TIMER0_IRQ  8U
#define NVIC_ISER0  (*(volatile uint32_t *)0xE000E100UL)
#define NVIC_ICPR0  (*(volatile uint32_t *)0xE000E280UL)
#define NVIC_IPR    ((volatile uint8_t *)0xE000E400UL)

#define EVENT_PERIOD_US  50U
#define EVENT_RELOAD     (configCPU_CLOCK_HZ / 1000000U * EVENT_PERIOD_US - 1U)
#define QUEUE_LEN        8U
#define BURST_MAX        1000U
#define LINE_MAX         32U

static QueueHandle_t event_queue;

/* Written by the handler during a burst; read by the task once it is over. */
static volatile uint32_t burst_target;
static volatile uint32_t burst_produced;
static volatile uint32_t burst_dropped;
static volatile bool burst_finished;

void TIMER0_IRQHandler(void)
{
	BaseType_t higher_priority_woken = pdFALSE;

	TIMER0_INTCLEAR = TIMER_INT;
	if (burst_produced < burst_target) {
		uint16_t event = (uint16_t)(burst_produced + 1U);

		burst_produced = event;
		if (xQueueSendFromISR(event_queue, &event, &higher_priority_woken) != pdPASS) {
			burst_dropped++;
		}
		if (burst_produced == burst_target) {
			TIMER0_CTRL = 0U;
			burst_finished = true;
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

static void uart_putu(uint32_t v)
{
	char buf[11];
	int i = 0;

	do {
		buf[i++] = (char)('0' + v % 10U);
		v /= 10U;
	} while (v != 0U);
	while (i > 0) {
		uart_putc(buf[--i]);
	}
}

static void read_line(char *buf, uint32_t size)
{
	uint32_t len = 0;

	for (;;) {
		while (!(UART0_STATE & UART_STATE_RX_FULL)) {
			vTaskDelay(1);
		}
		char ch = (char)(UART0_DATA & 0xFFU);

		if (ch == '\n') {
			break;
		}
		if (len < size - 1U) {
			buf[len++] = ch;
		} else {
			buf[0] = '?'; /* too long: can only be an error */
		}
	}
	if (len > 0U && buf[len - 1U] == '\r') {
		len--;
	}
	buf[len] = '\0';
}

/* "burst <n>", n = 1..1000: returns n, or 0 for any other line. */
static uint32_t parse_burst(const char *line)
{
	static const char word[] = "burst ";
	uint32_t n = 0;
	uint32_t digits = 0;

	for (uint32_t i = 0; word[i] != '\0'; i++) {
		if (line[i] != word[i]) {
			return 0;
		}
	}
	for (const char *p = line + sizeof(word) - 1U; *p != '\0'; p++) {
		if (*p < '0' || *p > '9' || ++digits > 4U) {
			return 0;
		}
		n = n * 10U + (uint32_t)(*p - '0');
	}
	return (n >= 1U && n <= BURST_MAX) ? n : 0U;
}

static void start_burst(uint32_t n)
{
	uint16_t stale;

	while (xQueueReceive(event_queue, &stale, 0) == pdPASS) {
	}
	burst_produced = 0U;
	burst_dropped = 0U;
	burst_finished = false;
	burst_target = n;
	TIMER0_RELOAD = EVENT_RELOAD;
	TIMER0_VALUE = EVENT_RELOAD;
	TIMER0_INTCLEAR = TIMER_INT;
	TIMER0_CTRL = TIMER_CTRL_EN | TIMER_CTRL_IRQEN;
}

static void consumer_task(void *arg)
{
	char line[LINE_MAX];

	(void)arg;
	for (;;) {
		read_line(line, sizeof(line));
		uint32_t n = parse_burst(line);

		if (n == 0U) {
			uart_puts("error\r\n");
			continue;
		}

		uint32_t consumed = 0;

		start_burst(n);
		for (;;) {
			/* Read the flag before looking at the queue: once the last event
			 * was produced, an empty queue means everything was handled. */
			bool finished = burst_finished;
			uint16_t event;

			if (xQueueReceive(event_queue, &event, 1) == pdPASS) {
				uart_puts("event ");
				uart_putu(event);
				uart_puts("\r\n");
				consumed++;
				vTaskDelay(1);
			} else if (finished) {
				break;
			}
		}
		uart_puts("burst done: produced ");
		uart_putu(burst_produced);
		uart_puts(" consumed ");
		uart_putu(consumed);
		uart_puts(" dropped ");
		uart_putu(burst_dropped);
		uart_puts("\r\n");
	}
}

static void halt(void)
{
	taskDISABLE_INTERRUPTS();
	for (;;) {
	}
}

int main(void)
{
	UART0_BAUDDIV = configCPU_CLOCK_HZ / 115200U;
	UART0_CTRL = UART_CTRL_TX_EN | UART_CTRL_RX_EN;

	event_queue = xQueueCreate(QUEUE_LEN, sizeof(uint16_t));
	if (event_queue == NULL) {
		halt();
	}
	if (xTaskCreate(consumer_task, "consumer", configMINIMAL_STACK_SIZE * 2U, NULL, tskIDLE_PRIORITY + 2U, NULL) != pdPASS) {
		halt();
	}

	TIMER0_CTRL = 0U;
	TIMER0_INTCLEAR = TIMER_INT;
	/* The handler calls FromISR functions: its priority must not be above
	 * configMAX_SYSCALL_INTERRUPT_PRIORITY (numerically not below it). */
	NVIC_IPR[TIMER0_IRQ] = configMAX_SYSCALL_INTERRUPT_PRIORITY;
	NVIC_ICPR0 = 1UL << TIMER0_IRQ;
	NVIC_ISER0 = 1UL << TIMER0_IRQ;

	vTaskStartScheduler();
	halt();
	return 0;
}
