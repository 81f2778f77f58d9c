/* defect: the low task gives the lock before printing "releasing", so the high task preempts it and prints "lock taken" first.
 * breaks: "Then it prints `low: releasing at <t>`, releases the lock, and prints `low: done at <t>`."
 * must_fail: scenario_low_holds_lock_50_ticks
 */
/*
 * src/main.c - motor-drive controller: three tasks share the calibration
 * table through a FreeRTOS mutex. The mutex's priority inheritance keeps the
 * high-priority task's wait bounded by the low task's hold time, even while
 * the medium task computes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdarg.h>

#include "FreeRTOS.h"
#include "task.h"
#include "semphr.h"

/* ---- UART0 (CMSDK APB UART) ------------------------------------------- */

#define UART0_BASE      0x40004000u
#define UART0_DATA      (*(volatile uint32_t *)(UART0_BASE + 0x00u))
#define UART0_STATE     (*(volatile uint32_t *)(UART0_BASE + 0x04u))
#define UART0_CTRL      (*(volatile uint32_t *)(UART0_BASE + 0x08u))
#define UART0_BAUDDIV   (*(volatile uint32_t *)(UART0_BASE + 0x10u))

#define UART_STATE_TXFULL  (1u << 0)
#define UART_CTRL_TXEN     (1u << 0)
#define CORE_CLOCK_HZ      25000000u
#define BAUD_RATE          115200u

static void uart_init(void)
{
	UART0_BAUDDIV = CORE_CLOCK_HZ / BAUD_RATE;
	UART0_CTRL = UART_CTRL_TXEN;
}

static void uart_putc(char c)
{
	while ((UART0_STATE & UART_STATE_TXFULL) != 0u) {
	}
	UART0_DATA = (uint32_t)(uint8_t)c;
}

static void uart_puts(const char *s)
{
	while (*s != '\0') {
		uart_putc(*s++);
	}
}

/* Print "<who>: <what> at <tick>\r\n"; the tick is read when printing. */
static void log_event(const char *who, const char *what)
{
	char line[64];

	taskENTER_CRITICAL();
	snprintf(line, sizeof line, "%s: %s at %lu\r\n", who, what,
		 (unsigned long)xTaskGetTickCount());
	uart_puts(line);
	taskEXIT_CRITICAL();
}

/* ---- Shared calibration table ---------------------------------------- */

#define LOW_PRIO     1u
#define MEDIUM_PRIO  2u
#define HIGH_PRIO    3u

#define LOW_HOLD_TICKS       50u
#define HIGH_START_DELAY     10u
#define HIGH_LOCK_TIMEOUT    100u
#define MEDIUM_START_DELAY   20u
#define MEDIUM_BUSY_TICKS    200u

static SemaphoreHandle_t table_lock;
static volatile uint16_t calib_table[32];

static void busy_until(TickType_t start, TickType_t ticks)
{
	while ((xTaskGetTickCount() - start) < ticks) {
		/* keep the CPU busy, never block or yield */
	}
}

static void block_forever(void)
{
	for (;;) {
		vTaskSuspend(NULL);
	}
}

static void low_task(void *arg)
{
	(void)arg;

	(void)xSemaphoreTake(table_lock, portMAX_DELAY);
	TickType_t taken = xTaskGetTickCount();
	log_event("low", "lock taken");

	/* Update the table without blocking until 50 ticks have passed. */
	uint32_t n = 0u;
	while ((xTaskGetTickCount() - taken) < LOW_HOLD_TICKS) {
		calib_table[n % 32u] = (uint16_t)(calib_table[n % 32u] + 1u);
		n++;
	}

	(void)xSemaphoreGive(table_lock);
	log_event("low", "releasing");
	log_event("low", "done");
	block_forever();
}

static void high_task(void *arg)
{
	(void)arg;

	vTaskDelay(HIGH_START_DELAY);
	log_event("high", "waiting");
	if (xSemaphoreTake(table_lock, HIGH_LOCK_TIMEOUT) == pdTRUE) {
		log_event("high", "lock taken");
		(void)xSemaphoreGive(table_lock);
	} else {
		log_event("high", "timeout");
	}
	vTaskDelete(NULL);
}

static void medium_task(void *arg)
{
	(void)arg;

	vTaskDelay(MEDIUM_START_DELAY);
	TickType_t start = xTaskGetTickCount();
	log_event("medium", "running");
	busy_until(start, MEDIUM_BUSY_TICKS);
	log_event("medium", "finished");
	block_forever();
}

static void halt(void)
{
	taskDISABLE_INTERRUPTS();
	for (;;) {
	}
}

int main(void)
{
	uart_init();

	/* A mutex (not a binary semaphore): it has priority inheritance. */
	table_lock = xSemaphoreCreateMutex();
	if (table_lock == NULL) {
		halt();
	}

	if (xTaskCreate(low_task, "low", configMINIMAL_STACK_SIZE * 4u, NULL,
			LOW_PRIO, NULL) != pdPASS ||
	    xTaskCreate(medium_task, "medium", configMINIMAL_STACK_SIZE * 4u, NULL,
			MEDIUM_PRIO, NULL) != pdPASS ||
	    xTaskCreate(high_task, "high", configMINIMAL_STACK_SIZE * 4u, NULL,
			HIGH_PRIO, NULL) != pdPASS) {
		halt();
	}

	vTaskStartScheduler();
	halt();
	return 0;
}
