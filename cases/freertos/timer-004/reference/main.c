#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"
#include "timers.h"

#define UART0_BASE      0x40004000UL
#define UART0_DATA      (*(volatile uint32_t *)(UART0_BASE + 0x00U))
#define UART0_STATE     (*(volatile uint32_t *)(UART0_BASE + 0x04U))
#define UART0_CTRL      (*(volatile uint32_t *)(UART0_BASE + 0x08U))
#define UART0_BAUDDIV   (*(volatile uint32_t *)(UART0_BASE + 0x10U))

#define UART_STATE_TX_FULL (1UL << 0)
#define UART_CTRL_TX_EN    (1UL << 0)

#define TICK_PERIOD_MS      100U
#define EXPIRIES_TO_REPORT  5U
#define STOP_WAIT_MS        50U

static TaskHandle_t reporter_handle;

/* Written by the timer service task, read by the reporter. */
static volatile uint32_t expiry_count;

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

static void uart_put_u32(uint32_t value)
{
	char digits[10];
	unsigned int n = 0;

	do {
		digits[n++] = (char)('0' + value % 10U);
		value /= 10U;
	} while (value != 0U);
	while (n > 0U) {
		uart_putc(digits[--n]);
	}
}

/* Runs in the timer service task: count and hand over, never wait. */
static void tick_timer_callback(TimerHandle_t timer)
{
	(void)timer;

	expiry_count++;
	if (expiry_count == EXPIRIES_TO_REPORT) {
		xTaskNotifyGive(reporter_handle);
	}
}

static void reporter_task(void *params)
{
	TimerHandle_t timer = (TimerHandle_t)params;

	uart_puts("timer demo: waiting for 5 expirations\r\n");

	(void)ulTaskNotifyTake(pdTRUE, portMAX_DELAY);

	if (xTimerStop(timer, pdMS_TO_TICKS(STOP_WAIT_MS)) != pdPASS) {
		uart_puts("timer demo: stop failed\r\n");
	} else {
		uart_puts("timer demo: stopped after ");
		uart_put_u32(expiry_count);
		uart_puts(" expirations\r\n");
	}

	vTaskDelete(NULL);
}

int main(void)
{
	TimerHandle_t timer;

	UART0_BAUDDIV = configCPU_CLOCK_HZ / 115200U;
	UART0_CTRL = UART_CTRL_TX_EN;

	timer = xTimerCreate("tick", pdMS_TO_TICKS(TICK_PERIOD_MS), pdTRUE, NULL, tick_timer_callback);
	if (timer == NULL) {
		for (;;) {
		}
	}

	if (xTaskCreate(reporter_task, "reporter", configMINIMAL_STACK_SIZE * 2U, timer, tskIDLE_PRIORITY + 2U,
			&reporter_handle) != pdPASS) {
		for (;;) {
		}
	}

	/* Before the scheduler runs the command is queued without blocking. */
	if (xTimerStart(timer, 0) != pdPASS) {
		for (;;) {
		}
	}

	vTaskStartScheduler();

	for (;;) {
	}
}
