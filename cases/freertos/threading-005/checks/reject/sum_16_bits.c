/* defect: the sum of the values is kept in 16 bits and wraps around for 50 samples
 * breaks: "After printing sample count, it prints summary: <count> samples, min <min>, max <max>, mean <mean>"
 * must_fail: scenario_fifty_samples_summary
 */
#include <stdbool.h>
#include <stdint.h>

#include "FreeRTOS.h"
#include "queue.h"
#include "task.h"

#include "sensor.h"

#define UART0_BASE    0x40004000UL
#define UART0_DATA    (*(volatile uint32_t *)(UART0_BASE + 0x00U))
#define UART0_STATE   (*(volatile uint32_t *)(UART0_BASE + 0x04U))
#define UART0_CTRL    (*(volatile uint32_t *)(UART0_BASE + 0x08U))
#define UART0_BAUDDIV (*(volatile uint32_t *)(UART0_BASE + 0x10U))

#define UART_STATE_TX_FULL (1UL << 0)
#define UART_STATE_RX_FULL (1UL << 1)
#define UART_CTRL_TX_EN    (1UL << 0)
#define UART_CTRL_RX_EN    (1UL << 1)

#define PERIOD_MIN  10U
#define PERIOD_MAX  1000U
#define COUNT_MIN   1U
#define COUNT_MAX   50U
#define QUEUE_LEN   4U
#define LINE_MAX    32U

typedef struct {
	uint32_t k;
	TickType_t stamp;
	uint16_t value;
} sample_t;

static QueueHandle_t sample_queue;
static uint32_t period_ticks;
static uint32_t sample_count;

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

/* Reads one line (without CR/LF) into buf; returns false when it was too long. */
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

/* Parses 1..4 decimal digits at *p into *out; advances *p. */
static bool parse_number(const char **p, uint32_t *out)
{
	uint32_t v = 0;
	uint32_t digits = 0;

	while (**p >= '0' && **p <= '9') {
		if (digits == 4U) {
			return false;
		}
		v = v * 10U + (uint32_t)(**p - '0');
		digits++;
		(*p)++;
	}
	*out = v;
	return digits > 0U;
}

static bool parse_config(const char *line, uint32_t *period, uint32_t *count)
{
	const char *p = line;

	if (!parse_number(&p, period) || *p != ' ') {
		return false;
	}
	p++;
	if (!parse_number(&p, count) || *p != '\0') {
		return false;
	}
	return *period >= PERIOD_MIN && *period <= PERIOD_MAX && *count >= COUNT_MIN && *count <= COUNT_MAX;
}

static void sampler_task(void *arg)
{
	TickType_t wake = xTaskGetTickCount();

	(void)arg;
	for (uint32_t k = 1; k <= sample_count; k++) {
		vTaskDelayUntil(&wake, (TickType_t)period_ticks);

		sample_t s;
		s.k = k;
		s.stamp = xTaskGetTickCount();
		s.value = sensor_convert();
		(void)xQueueSend(sample_queue, &s, portMAX_DELAY);
	}
	vTaskDelete(NULL);
}

static void logger_task(void *arg)
{
	uint16_t sum = 0;
	uint16_t min = 0xFFFFU;
	uint16_t max = 0;
	sample_t s;

	(void)arg;
	for (uint32_t n = 0; n < sample_count; n++) {
		(void)xQueueReceive(sample_queue, &s, portMAX_DELAY);
		uart_puts("sample ");
		uart_putu(s.k);
		uart_puts(" at ");
		uart_putu((uint32_t)s.stamp);
		uart_puts(": ");
		uart_putu(s.value);
		uart_puts("\r\n");
		sum += s.value;
		if (s.value < min) {
			min = s.value;
		}
		if (s.value > max) {
			max = s.value;
		}
	}
	uart_puts("summary: ");
	uart_putu(sample_count);
	uart_puts(" samples, min ");
	uart_putu(min);
	uart_puts(", max ");
	uart_putu(max);
	uart_puts(", mean ");
	uart_putu((sum + sample_count / 2U) / sample_count);
	uart_puts("\r\n");
	for (;;) {
		vTaskSuspend(NULL);
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
	char line[LINE_MAX];

	UART0_BAUDDIV = configCPU_CLOCK_HZ / 115200U;
	UART0_CTRL = UART_CTRL_TX_EN | UART_CTRL_RX_EN;

	for (;;) {
		bool fits = read_line(line, sizeof(line));

		if (fits && parse_config(line, &period_ticks, &sample_count)) {
			break;
		}
		uart_puts("config error\r\n");
	}
	uart_puts("config: period ");
	uart_putu(period_ticks);
	uart_puts(", count ");
	uart_putu(sample_count);
	uart_puts("\r\n");

	sample_queue = xQueueCreate(QUEUE_LEN, sizeof(sample_t));
	if (sample_queue == NULL) {
		halt();
	}
	if (xTaskCreate(sampler_task, "sampler", configMINIMAL_STACK_SIZE * 2U, NULL, 3, NULL) != pdPASS) {
		halt();
	}
	if (xTaskCreate(logger_task, "logger", configMINIMAL_STACK_SIZE * 2U, NULL, 2, NULL) != pdPASS) {
		halt();
	}
	vTaskStartScheduler();
	halt();
	return 0;
}
