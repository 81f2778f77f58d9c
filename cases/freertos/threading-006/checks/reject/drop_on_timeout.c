/* defect: an item whose send timed out is counted and then dropped, not retried
 * breaks: "tries again to queue the same item; an item is never skipped or dropped."
 * must_fail: scenario_slow_consumer_backpressure, scenario_long_pause_drains_all
 */
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

#define QUEUE_LEN      4U
#define SEND_TIMEOUT   5U
#define ITEMS_MAX      500U
#define PAUSE_MAX      200U
#define BURST          8U
#define LINE_MAX       40U

enum { PROD_A = 0, PROD_B = 1, PROD_COUNT = 2 };

typedef struct {
	uint8_t producer;
	uint8_t end;        /* 1: end marker */
	uint32_t seq;       /* item: sequence number; marker: items queued */
	uint32_t timeouts;  /* marker only */
} item_t;

typedef struct {
	uint8_t id;
	TickType_t gap;
	uint32_t count;
} producer_cfg_t;

static QueueHandle_t item_queue;
static producer_cfg_t producers[PROD_COUNT] = {
	{ PROD_A, 2U, 0U },
	{ PROD_B, 3U, 0U },
};
static uint32_t pause_ticks;
static TaskHandle_t producer_handles[PROD_COUNT];

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

static bool parse_number(const char **p, uint32_t *out)
{
	uint32_t v = 0;
	uint32_t digits = 0;

	while (**p >= '0' && **p <= '9') {
		if (digits == 6U) {
			return false;
		}
		v = v * 10U + (uint32_t)(**p - '0');
		digits++;
		(*p)++;
	}
	*out = v;
	return digits > 0U;
}

static bool parse_config(const char *line, uint32_t *na, uint32_t *nb, uint32_t *pause)
{
	const char *p = line;

	if (!parse_number(&p, na) || *p++ != ' ') {
		return false;
	}
	if (!parse_number(&p, nb) || *p++ != ' ') {
		return false;
	}
	if (!parse_number(&p, pause) || *p != '\0') {
		return false;
	}
	return *na >= 1U && *na <= ITEMS_MAX && *nb >= 1U && *nb <= ITEMS_MAX && *pause <= PAUSE_MAX;
}

static void producer_task(void *arg)
{
	const producer_cfg_t *cfg = arg;
	uint32_t timeouts = 0;
	item_t item;

	/* Wait for the consumer to start the run. */
	(void)ulTaskNotifyTake(pdTRUE, portMAX_DELAY);

	item.producer = cfg->id;
	item.end = 0U;
	item.timeouts = 0U;
	for (uint32_t k = 1U; k <= cfg->count; k++) {
		item.seq = k;
		if (xQueueSend(item_queue, &item, (TickType_t)SEND_TIMEOUT) != pdPASS) {
			timeouts++;
		}
		vTaskDelay(cfg->gap);
	}
	item.end = 1U;
	item.seq = cfg->count;
	item.timeouts = timeouts;
	(void)xQueueSend(item_queue, &item, portMAX_DELAY);
	vTaskDelete(NULL);
}

static void consumer_task(void *arg)
{
	char line[LINE_MAX];
	uint32_t na, nb, pause;
	uint32_t received[PROD_COUNT] = { 0U, 0U };
	uint32_t sum[PROD_COUNT] = { 0U, 0U };
	uint32_t last[PROD_COUNT] = { 0U, 0U };
	uint32_t disorder[PROD_COUNT] = { 0U, 0U };
	item_t marker[PROD_COUNT];
	uint32_t ends = 0U;
	uint32_t taken = 0U;
	item_t item;

	(void)arg;
	for (;;) {
		if (read_line(line, sizeof line) && parse_config(line, &na, &nb, &pause)) {
			break;
		}
		uart_puts("config error\r\n");
	}
	uart_puts("config: A ");
	uart_putu(na);
	uart_puts(", B ");
	uart_putu(nb);
	uart_puts(", pause ");
	uart_putu(pause);
	uart_puts("\r\n");

	producers[PROD_A].count = na;
	producers[PROD_B].count = nb;
	pause_ticks = pause;
	xTaskNotifyGive(producer_handles[PROD_A]);
	xTaskNotifyGive(producer_handles[PROD_B]);

	while (ends < PROD_COUNT) {
		(void)xQueueReceive(item_queue, &item, portMAX_DELAY);
		uint32_t p = item.producer;
		if (item.end) {
			marker[p] = item;
			ends++;
			continue;
		}
		received[p]++;
		sum[p] += item.seq;
		if (item.seq != last[p] + 1U) {
			disorder[p]++;
		}
		last[p] = item.seq;
		taken++;
		if (taken % BURST == 0U && pause_ticks > 0U) {
			vTaskDelay((TickType_t)pause_ticks);
		}
	}

	for (uint32_t p = 0; p < PROD_COUNT; p++) {
		uart_puts(p == PROD_A ? "A: sent " : "B: sent ");
		uart_putu(marker[p].seq);
		uart_puts(" received ");
		uart_putu(received[p]);
		uart_puts(" sum ");
		uart_putu(sum[p]);
		uart_puts(" out of order ");
		uart_putu(disorder[p]);
		uart_puts(" timeouts ");
		uart_putu(marker[p].timeouts);
		uart_puts("\r\n");
	}
	uart_puts("pipeline done\r\n");
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
	UART0_BAUDDIV = configCPU_CLOCK_HZ / 115200U;
	UART0_CTRL = UART_CTRL_TX_EN | UART_CTRL_RX_EN;

	item_queue = xQueueCreate(QUEUE_LEN, sizeof(item_t));
	if (item_queue == NULL) {
		halt();
	}
	if (xTaskCreate(producer_task, "prodA", configMINIMAL_STACK_SIZE * 2U, &producers[PROD_A], 2, &producer_handles[PROD_A]) != pdPASS) {
		halt();
	}
	if (xTaskCreate(producer_task, "prodB", configMINIMAL_STACK_SIZE * 2U, &producers[PROD_B], 2, &producer_handles[PROD_B]) != pdPASS) {
		halt();
	}
	if (xTaskCreate(consumer_task, "consumer", configMINIMAL_STACK_SIZE * 3U, NULL, 3, NULL) != pdPASS) {
		halt();
	}
	vTaskStartScheduler();
	halt();
	return 0;
}
