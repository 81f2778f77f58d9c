/* defect: the lock is a binary semaphore, which has no priority inheritance; the medium task
 *         preempts the holder and the high task times out at tick 110
 * breaks: "The high task's wait for the lock must be bounded by the time the low task holds it"
 * must_fail: scenario_high_gets_lock_at_release, scenario_medium_does_not_preempt_holder
 */
#include <stdint.h>

#include "FreeRTOS.h"
#include "semphr.h"
#include "task.h"

#define UART0_BASE    0x40004000UL
#define UART0_DATA    (*(volatile uint32_t *)(UART0_BASE + 0x00U))
#define UART0_STATE   (*(volatile uint32_t *)(UART0_BASE + 0x04U))
#define UART0_CTRL    (*(volatile uint32_t *)(UART0_BASE + 0x08U))
#define UART0_BAUDDIV (*(volatile uint32_t *)(UART0_BASE + 0x10U))

#define UART_STATE_TX_FULL (1UL << 0)
#define UART_CTRL_TX_EN    (1UL << 0)

#define LOW_HOLD_TICKS      50U
#define HIGH_START_TICKS    10U
#define HIGH_WAIT_TICKS     100U
#define MEDIUM_START_TICKS  20U
#define MEDIUM_WORK_TICKS   200U

static SemaphoreHandle_t table_lock;
static volatile uint32_t calibration[16];

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

static void report(const char *what, TickType_t t)
{
	uart_puts(what);
	uart_putu((uint32_t)t);
	uart_puts("\r\n");
}

static void spin_until(TickType_t start, TickType_t ticks)
{
	uint32_t i = 0;

	while ((TickType_t)(xTaskGetTickCount() - start) < ticks) {
		calibration[i & 15U] += i;
		i++;
	}
}

static void low_task(void *arg)
{
	(void)arg;
	xSemaphoreTake(table_lock, portMAX_DELAY);
	TickType_t taken = xTaskGetTickCount();
	report("low: lock taken at ", taken);
	spin_until(taken, LOW_HOLD_TICKS);
	report("low: releasing at ", xTaskGetTickCount());
	xSemaphoreGive(table_lock);
	report("low: done at ", xTaskGetTickCount());
	for (;;) {
		vTaskSuspend(NULL);
	}
}

static void high_task(void *arg)
{
	(void)arg;
	vTaskDelay(HIGH_START_TICKS);
	report("high: waiting at ", xTaskGetTickCount());
	if (xSemaphoreTake(table_lock, HIGH_WAIT_TICKS) == pdTRUE) {
		report("high: lock taken at ", xTaskGetTickCount());
		calibration[0] = 0U;
		xSemaphoreGive(table_lock);
	} else {
		report("high: timeout at ", xTaskGetTickCount());
	}
	vTaskDelete(NULL);
}

static void medium_task(void *arg)
{
	(void)arg;
	vTaskDelay(MEDIUM_START_TICKS);
	TickType_t start = xTaskGetTickCount();
	report("medium: running at ", start);
	spin_until(start, MEDIUM_WORK_TICKS);
	report("medium: finished at ", xTaskGetTickCount());
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
	UART0_CTRL = UART_CTRL_TX_EN;

	/* The lock starts given. */
	table_lock = xSemaphoreCreateBinary();
	if (table_lock == NULL || xSemaphoreGive(table_lock) != pdTRUE) {
		halt();
	}
	if (xTaskCreate(low_task, "low", configMINIMAL_STACK_SIZE * 2U, NULL, 1, NULL) != pdPASS ||
	    xTaskCreate(medium_task, "medium", configMINIMAL_STACK_SIZE * 2U, NULL, 2, NULL) != pdPASS ||
	    xTaskCreate(high_task, "high", configMINIMAL_STACK_SIZE * 2U, NULL, 3, NULL) != pdPASS) {
		halt();
	}
	vTaskStartScheduler();
	halt();
	return 0;
}
