/* defect: the lock is a binary semaphore (no priority inheritance), so the medium task preempts the holder and the high task times out.
 * breaks: "The high task's wait for the lock must be bounded by the time the low task holds it: the medium task's computation must never delay the high task (no unbounded priority inversion)."
 * must_fail: scenario_high_gets_lock_at_release, scenario_medium_does_not_preempt_holder
 */
/*
 * src/main.c - motor-drive controller: three tasks share the calibration
 * table through a FreeRTOS lock; the high-priority task waits for it with a
 * bounded timeout while the medium task computes.
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

	log_event("low", "releasing");
	(void)xSemaphoreGive(table_lock);
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

	/* Binary semaphore used as the table lock; starts available. */
	table_lock = xSemaphoreCreateBinary();
	if (table_lock == NULL) {
		halt();
	}
	(void)xSemaphoreGive(table_lock);

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
