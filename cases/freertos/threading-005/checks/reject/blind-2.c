/* defect: the summary mean is truncated (total / count) instead of rounded to the nearest integer with halves up.
 * breaks: "After printing sample `count`, it prints `summary: <count> samples, min <min>, max <max>, mean <mean>`, where the mean of the values is rounded to the nearest integer (a fraction of exactly one half is rounded up), and then prints nothing more."
 * must_fail: scenario_mean_half_rounds_up, scenario_exactly_count_samples
 */
#include <stdint.h>
#include <string.h>

#include "FreeRTOS.h"
#include "task.h"
#include "queue.h"
#include "sensor.h"

/* UART0 register block (Arm CMSDK APB UART). */
typedef struct {
	volatile uint32_t data;
	volatile uint32_t state;
	volatile uint32_t ctrl;
	volatile uint32_t intstatus;
	volatile uint32_t bauddiv;
} uart_regs_t;

#define UART0 ((uart_regs_t *)0x40004000u)

static void out_ch(char c)
{
	while (UART0->state & 0x1u)     /* TX buffer full */
		;
	UART0->data = (uint32_t)(unsigned char)c;
}

static void out_str(const char *s)
{
	while (*s)
		out_ch(*s++);
}

static void out_num(uint32_t v)
{
	char b[11];
	char *p = b + sizeof b;

	*--p = '\0';
	do {
		*--p = (char)('0' + v % 10u);
		v /= 10u;
	} while (v != 0u);
	out_str(p);
}

static char in_ch(void)
{
	while (!(UART0->state & 0x2u))  /* RX buffer full = byte available */
		;
	return (char)UART0->data;
}

/*
 * Read a line up to LF into buf (without the LF and without one CR right
 * before it). Returns the length, or -1 if the line did not fit.
 */
static int read_line(char *buf, int size)
{
	int n = 0;
	int overflow = 0;
	char c;

	while ((c = in_ch()) != '\n') {
		if (n < size - 1)
			buf[n++] = c;
		else
			overflow = 1;
	}
	if (overflow)
		return -1;
	if (n > 0 && buf[n - 1] == '\r')
		n--;
	buf[n] = '\0';
	return n;
}

/* Parse an unsigned decimal (1 or more digits) at *pp; advance *pp.
 * Values beyond any valid range saturate instead of overflowing. */
static int parse_num(const char **pp, uint32_t *out)
{
	const char *p = *pp;
	uint32_t v = 0;
	int nd = 0;

	while (*p >= '0' && *p <= '9') {
		if (v < 100000u)
			v = v * 10u + (uint32_t)(*p - '0');
		p++;
		nd++;
	}
	if (nd == 0)
		return 0;
	*pp = p;
	*out = v;
	return 1;
}

static int parse_config(const char *s, uint32_t *period, uint32_t *count)
{
	uint32_t p, c;

	if (!parse_num(&s, &p) || *s++ != ' ' || !parse_num(&s, &c) || *s != '\0')
		return 0;
	if (p < 10u || p > 1000u || c < 1u || c > 50u)
		return 0;
	*period = p;
	*count = c;
	return 1;
}

/* ---------------------------------------------------------------------- */

struct reading {
	uint16_t k;
	uint16_t value;
	TickType_t stamp;
};

static struct {
	uint32_t period;
	uint32_t count;
} cfg;

static QueueHandle_t readings;

static void sampler(void *unused)
{
	(void)unused;

	TickType_t next = xTaskGetTickCount();   /* 0: first run after start */
	for (uint32_t k = 1; k <= cfg.count; k++) {
		struct reading r;

		xTaskDelayUntil(&next, cfg.period);  /* wakes at k * period */
		r.stamp = xTaskGetTickCount();
		r.value = sensor_convert();
		r.k = (uint16_t)k;
		xQueueSend(readings, &r, portMAX_DELAY);
	}
	vTaskSuspend(NULL);                      /* done: no more samples */
	for (;;)
		;
}

static void logger(void *unused)
{
	struct reading r;
	uint32_t lo = 4095, hi = 0, total = 0, seen = 0;

	(void)unused;
	while (seen < cfg.count) {
		if (xQueueReceive(readings, &r, portMAX_DELAY) != pdPASS)
			continue;
		seen++;
		out_str("sample ");
		out_num(r.k);
		out_str(" at ");
		out_num((uint32_t)r.stamp);
		out_str(": ");
		out_num(r.value);
		out_str("\r\n");
		if (r.value < lo) lo = r.value;
		if (r.value > hi) hi = r.value;
		total += r.value;
	}

	out_str("summary: ");
	out_num(cfg.count);
	out_str(" samples, min ");
	out_num(lo);
	out_str(", max ");
	out_num(hi);
	out_str(", mean ");
	out_num(total / cfg.count);
	out_str("\r\n");

	vTaskSuspend(NULL);
	for (;;)
		;
}

int main(void)
{
	char line[80];

	UART0->bauddiv = 25000000u / 115200u;
	UART0->ctrl = 0x1u | 0x2u;          /* TX and RX enable */

	for (;;) {
		int n = read_line(line, (int)sizeof line);

		if (n > 0 && parse_config(line, &cfg.period, &cfg.count))
			break;
		out_str("config error\r\n");
	}
	out_str("config: period ");
	out_num(cfg.period);
	out_str(", count ");
	out_num(cfg.count);
	out_str("\r\n");

	readings = xQueueCreate(4, sizeof(struct reading));
	if (readings != NULL &&
	    xTaskCreate(sampler, "sampler", 256, NULL, 3, NULL) == pdPASS &&
	    xTaskCreate(logger, "logger", 256, NULL, 2, NULL) == pdPASS) {
		vTaskStartScheduler();
	}

	/* Could not set up (or the scheduler returned): stop. */
	taskDISABLE_INTERRUPTS();
	for (;;)
		;
}
