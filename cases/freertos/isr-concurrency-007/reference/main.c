#include <stdbool.h>
#include <stdint.h>

#include "FreeRTOS.h"
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

#define EVENT_PERIOD_US  100U
#define EVENT_RELOAD     (configCPU_CLOCK_HZ / 1000000U * EVENT_PERIOD_US - 1U)
#define RING_SIZE        256U
#define BURST_MAX        200U
#define LINE_MAX         32U

typedef struct {
	uint32_t number;
	TickType_t stamp;
} event_t;

static event_t ring[RING_SIZE];
static volatile uint32_t ring_head;   /* written by the ISR only */
static uint32_t ring_tail;            /* handler task only */
static volatile uint32_t burst_target;
static volatile uint32_t produced;
static TaskHandle_t handler_handle;
static TaskHandle_t command_handle;

void TIMER0_IRQHandler(void)
{
	BaseType_t higher_priority_woken = pdFALSE;

	TIMER0_INTCLEAR = TIMER_INT;
	if (produced < burst_target) {
		uint32_t head = ring_head;
		produced++;
		ring[head % RING_SIZE].number = produced;
		ring[head % RING_SIZE].stamp = xTaskGetTickCountFromISR();
		ring_head = head + 1U;
		if (produced == burst_target) {
			TIMER0_CTRL = 0U;
		}
		vTaskNotifyGiveFromISR(handler_handle, &higher_priority_woken);
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

static char uart_getc(void)
{
	while (!(UART0_STATE & UART_STATE_RX_FULL)) {
	}
	return (char)(UART0_DATA & 0xFFU);
}

static bool read_line(char *buf, uint32_t size)
{
	uint32_t len = 0;
	bool fits = true;

	for (;;) {
		char ch = uart_getc();

		if (ch == '\n') {
			break;
		}
		if (len < size - 1U) {
			buf[len++] = ch;
		} else {
			fits = false;
		}
	}
	if (len > 0U && buf[len - 1U] == '\r') {
		len--;
	}
	buf[len] = '\0';
	return fits;
}

static bool parse_command(const char *line, uint32_t *n)
{
	const char *p = line;
	uint32_t v = 0;
	uint32_t digits = 0;

	if (p[0] != 'b' || p[1] != 'u' || p[2] != 'r' || p[3] != 's' || p[4] != 't' || p[5] != ' ') {
		return false;
	}
	for (p += 6; *p >= '0' && *p <= '9'; p++) {
		if (++digits > 4U) {
			return false;
		}
		v = v * 10U + (uint32_t)(*p - '0');
	}
	if (digits == 0U || *p != '\0' || v < 1U || v > BURST_MAX) {
		return false;
	}
	*n = v;
	return true;
}

static void handler_task(void *arg)
{
	uint32_t handled = 0;
	TickType_t max_latency = 0;

	(void)arg;
	for (;;) {
		(void)ulTaskNotifyTake(pdFALSE, portMAX_DELAY);
		event_t ev = ring[ring_tail % RING_SIZE];
		ring_tail++;
		TickType_t latency = xTaskGetTickCount() - ev.stamp;
		if (handled == 0U) {
			max_latency = 0;
		}
		handled++;
		if (latency > max_latency) {
			max_latency = latency;
		}
		uart_puts("event ");
		uart_putu(ev.number);
		uart_puts(" latency ");
		uart_putu((uint32_t)latency);
		uart_puts("\r\n");
		if (ev.number % 10U == 0U) {
			vTaskDelay(2);
		}
		if (handled == burst_target) {
			uart_puts("burst done: handled ");
			uart_putu(handled);
			uart_puts(", max latency ");
			uart_putu((uint32_t)max_latency);
			uart_puts(" ticks\r\n");
			handled = 0;
			xTaskNotifyGive(command_handle);
		}
	}
}

static void command_task(void *arg)
{
	char line[LINE_MAX];
	uint32_t n;

	(void)arg;
	for (;;) {
		if (!read_line(line, sizeof line) || !parse_command(line, &n)) {
			uart_puts("error\r\n");
			continue;
		}
		produced = 0;
		burst_target = n;
		TIMER0_RELOAD = EVENT_RELOAD;
		TIMER0_VALUE = EVENT_RELOAD;
		TIMER0_INTCLEAR = TIMER_INT;
		TIMER0_CTRL = TIMER_CTRL_EN | TIMER_CTRL_IRQEN;
		(void)ulTaskNotifyTake(pdTRUE, portMAX_DELAY);
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

	TIMER0_CTRL = 0U;
	TIMER0_INTCLEAR = TIMER_INT;
	NVIC_IPR[TIMER0_IRQ] = configMAX_SYSCALL_INTERRUPT_PRIORITY;
	NVIC_ICPR0 = 1UL << TIMER0_IRQ;
	NVIC_ISER0 = 1UL << TIMER0_IRQ;

	if (xTaskCreate(handler_task, "handler", configMINIMAL_STACK_SIZE * 2U, NULL, 3, &handler_handle) != pdPASS) {
		halt();
	}
	if (xTaskCreate(command_task, "command", configMINIMAL_STACK_SIZE * 2U, NULL, 1, &command_handle) != pdPASS) {
		halt();
	}
	vTaskStartScheduler();
	halt();
	return 0;
}
