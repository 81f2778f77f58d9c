#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"
#include "timers.h"

#define UART_DATA    (*(volatile uint32_t *)0x40004000UL)
#define UART_STATE   (*(volatile uint32_t *)0x40004004UL)
#define UART_CTRL    (*(volatile uint32_t *)0x40004008UL)
#define UART_BAUDDIV (*(volatile uint32_t *)0x40004010UL)

#define EXPIRY_TARGET      5U
#define TIMER_AUTO_RELOAD  pdTRUE
#define STOP_BLOCK_TICKS   pdMS_TO_TICKS(20)

static TimerHandle_t tick_timer;
static TaskHandle_t reporter;

static void serial_write(const char *text)
{
	while (*text) {
		while (UART_STATE & 1U) {
		}
		UART_DATA = (unsigned char)*text++;
	}
}

static void serial_write_dec(uint32_t n)
{
	char tmp[10];
	int len = 0;

	do {
		tmp[len++] = (char)('0' + n % 10U);
		n /= 10U;
	} while (n > 0U);
	while (len > 0) {
		char one[2] = { tmp[--len], '\0' };
		serial_write(one);
	}
}

static void on_tick(TimerHandle_t t)
{
	static uint32_t expirations;

	(void)t;
	expirations += 1U;
	if (expirations == EXPIRY_TARGET) {
		(void)xTaskNotify(reporter, expirations, eSetValueWithOverwrite);
	}
}

static void reporter_main(void *arg)
{
	uint32_t counted = 0;

	(void)arg;
	serial_write("timer demo: waiting for 5 expirations\r\n");

	if (xTaskNotifyWait(0U, 0xFFFFFFFFUL, &counted, portMAX_DELAY) == pdTRUE) {
		if (xTimerStop(tick_timer, STOP_BLOCK_TICKS) == pdPASS) {
			serial_write("timer demo: stopped after ");
			serial_write_dec(counted);
			serial_write(" expirations\r\n");
		} else {
			serial_write("timer demo: stop failed\r\n");
		}
	}

	vTaskSuspend(NULL);
}

static BaseType_t create_objects(void)
{
	tick_timer = xTimerCreate("tick", (100U / portTICK_PERIOD_MS), TIMER_AUTO_RELOAD, NULL, on_tick);
	if (tick_timer == NULL) {
		return pdFAIL;
	}
	if (xTaskCreate(reporter_main, "reporter", 2U * configMINIMAL_STACK_SIZE, NULL, 3U, &reporter) != pdPASS) {
		return pdFAIL;
	}
	if (xTimerStart(tick_timer, 0U) != pdPASS) {
		return pdFAIL;
	}
	return pdPASS;
}

int main(void)
{
	UART_BAUDDIV = 25000000U / 115200U;
	UART_CTRL = 1U;

	if (create_objects() == pdPASS) {
		vTaskStartScheduler();
	}

	for (;;) {
	}
}
