/*
 * src/main.c - LC-20 load-cell logger.
 *
 * main() reads "<period> <count>" from UART0, then a sampler task paced by
 * xTaskDelayUntil() takes `count` readings at ticks period, 2*period, ...
 * and sends them through a 4-entry queue to a logger task that prints them
 * and, after the last one, a summary.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "FreeRTOS.h"
#include "task.h"
#include "queue.h"
#include "sensor.h"

/* ---- UART0: CMSDK APB UART ------------------------------------------- */

#define UART0_BASE     0x40004000u
#define UART_DATA      (*(volatile uint32_t *)(UART0_BASE + 0x00u))
#define UART_STATE     (*(volatile uint32_t *)(UART0_BASE + 0x04u))
#define UART_CTRL      (*(volatile uint32_t *)(UART0_BASE + 0x08u))
#define UART_BAUDDIV   (*(volatile uint32_t *)(UART0_BASE + 0x10u))

#define STATE_TX_FULL  (1u << 0)
#define STATE_RX_FULL  (1u << 1)
#define CTRL_TX_EN     (1u << 0)
#define CTRL_RX_EN     (1u << 1)

#define CPU_HZ         25000000u
#define BAUD           115200u

static void uart_init(void)
{
	UART_BAUDDIV = CPU_HZ / BAUD;
	UART_CTRL = CTRL_TX_EN | CTRL_RX_EN;
}

static void uart_putc(char c)
{
	while ((UART_STATE & STATE_TX_FULL) != 0u) {
	}
	UART_DATA = (uint8_t)c;
}

static void uart_puts(const char *s)
{
	while (*s != '\0') {
		uart_putc(*s++);
	}
}

static char uart_getc(void)
{
	while ((UART_STATE & STATE_RX_FULL) == 0u) {
	}
	return (char)(UART_DATA & 0xFFu);
}

/* ---- Configuration line ------------------------------------------------ */

#define PERIOD_MIN  10u
#define PERIOD_MAX  1000u
#define COUNT_MIN   1u
#define COUNT_MAX   50u

/*
 * Read one line and parse it strictly as "<digits> <digits>", LF-terminated,
 * with an optional CR right before the LF. Returns true for a well-formed
 * line with both values in range.
 */
static bool read_config(uint32_t *period, uint32_t *count)
{
	enum { FIRST, SECOND, CR_SEEN, BAD } st = FIRST;
	uint32_t val[2] = { 0u, 0u };
	uint32_t digits[2] = { 0u, 0u };

	for (;;) {
		char c = uart_getc();

		if (c == '\n') {
			break;
		}
		switch (st) {
		case FIRST:
		case SECOND: {
			int i = (st == FIRST) ? 0 : 1;

			if (c >= '0' && c <= '9') {
				if (val[i] <= 100000u) {   /* saturate: already out of range */
					val[i] = val[i] * 10u + (uint32_t)(c - '0');
				}
				digits[i]++;
			} else if (c == ' ' && st == FIRST && digits[0] > 0u) {
				st = SECOND;
			} else if (c == '\r' && st == SECOND && digits[1] > 0u) {
				st = CR_SEEN;
			} else {
				st = BAD;
			}
			break;
		}
		case CR_SEEN:  /* anything between CR and LF */
		default:
			st = BAD;
			break;
		}
	}

	if (!((st == SECOND && digits[1] > 0u) || st == CR_SEEN)) {
		return false;
	}
	if (val[0] < PERIOD_MIN || val[0] > PERIOD_MAX ||
	    val[1] < COUNT_MIN || val[1] > COUNT_MAX) {
		return false;
	}
	*period = val[0];
	*count = val[1];
	return true;
}

/* ---- Tasks --------------------------------------------------------------- */

typedef struct {
	uint32_t   index;   /* k, 1-based */
	TickType_t stamp;   /* tick at which the sample was taken */
	uint16_t   value;   /* 0..4095 */
} sample_t;

#define QUEUE_LEN       4u
#define SAMPLER_PRIO    3u
#define LOGGER_PRIO     2u
#define TASK_STACK      (configMINIMAL_STACK_SIZE * 4u)

static QueueHandle_t sample_q;
static uint32_t cfg_period;
static uint32_t cfg_count;

static void sampler_task(void *arg)
{
	TickType_t wake = 0;   /* the scheduler started at tick 0 */

	(void)arg;
	for (uint32_t k = 1u; k <= cfg_count; k++) {
		sample_t s;

		/* Absolute deadline k * period: conversion time cannot drift it. */
		vTaskDelayUntil(&wake, (TickType_t)cfg_period);
		s.index = k;
		s.stamp = xTaskGetTickCount();
		s.value = sensor_convert();
		(void)xQueueSend(sample_q, &s, portMAX_DELAY);
	}
	vTaskDelete(NULL);
}

static void logger_task(void *arg)
{
	char line[64];
	uint32_t min = UINT32_MAX;
	uint32_t max = 0u;
	uint32_t sum = 0u;

	(void)arg;
	for (uint32_t n = 0u; n < cfg_count; n++) {
		sample_t s;

		(void)xQueueReceive(sample_q, &s, portMAX_DELAY);
		snprintf(line, sizeof line, "sample %lu at %lu: %u\r\n",
			 (unsigned long)s.index, (unsigned long)s.stamp,
			 (unsigned)s.value);
		uart_puts(line);

		if (s.value < min) {
			min = s.value;
		}
		if (s.value > max) {
			max = s.value;
		}
		sum += s.value;
	}

	/* Mean rounded to nearest, exact halves up. */
	uint32_t mean = (2u * sum + cfg_count) / (2u * cfg_count);

	snprintf(line, sizeof line, "summary: %lu samples, min %lu, max %lu, mean %lu\r\n",
		 (unsigned long)cfg_count, (unsigned long)min,
		 (unsigned long)max, (unsigned long)mean);
	uart_puts(line);

	vTaskDelete(NULL);
}

static void stop(void)
{
	taskDISABLE_INTERRUPTS();
	for (;;) {
	}
}

int main(void)
{
	char line[48];

	uart_init();

	while (!read_config(&cfg_period, &cfg_count)) {
		uart_puts("config error\r\n");
	}
	snprintf(line, sizeof line, "config: period %lu, count %lu\r\n",
		 (unsigned long)cfg_period, (unsigned long)cfg_count);
	uart_puts(line);

	sample_q = xQueueCreate(QUEUE_LEN, sizeof(sample_t));
	if (sample_q == NULL) {
		stop();
	}
	if (xTaskCreate(sampler_task, "sampler", TASK_STACK, NULL, SAMPLER_PRIO, NULL) != pdPASS) {
		stop();
	}
	if (xTaskCreate(logger_task, "logger", TASK_STACK, NULL, LOGGER_PRIO, NULL) != pdPASS) {
		stop();
	}

	vTaskStartScheduler();
	stop();
	return 0;
}
