#include <stdint.h>

#include "FreeRTOS.h"
#include "event_groups.h"
#include "task.h"

#define UART0_BASE      0x40004000UL
#define UART0_DATA      (*(volatile uint32_t *)(UART0_BASE + 0x00U))
#define UART0_STATE     (*(volatile uint32_t *)(UART0_BASE + 0x04U))
#define UART0_CTRL      (*(volatile uint32_t *)(UART0_BASE + 0x08U))
#define UART0_BAUDDIV   (*(volatile uint32_t *)(UART0_BASE + 0x10U))

#define UART_STATE_TX_FULL (1UL << 0)
#define UART_CTRL_TX_EN    (1UL << 0)

#define SENSOR_READY_BIT   ((EventBits_t)1U << 0)
#define ACTUATOR_READY_BIT ((EventBits_t)1U << 1)
#define ALL_READY_BITS     (SENSOR_READY_BIT | ACTUATOR_READY_BIT)

#define READY_TIMEOUT_MS   500U

static EventGroupHandle_t ready_group;

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

static void sensor_task(void *params)
{
	(void)params;

	for (;;) {
		vTaskDelay(pdMS_TO_TICKS(100));
		xEventGroupSetBits(ready_group, SENSOR_READY_BIT);
	}
}

static void actuator_task(void *params)
{
	(void)params;

	for (;;) {
		vTaskDelay(pdMS_TO_TICKS(150));
		xEventGroupSetBits(ready_group, ACTUATOR_READY_BIT);
	}
}

static void controller_task(void *params)
{
	uint32_t cycle = 0;

	(void)params;
	uart_puts("controller started\r\n");

	for (;;) {
		EventBits_t bits = xEventGroupWaitBits(ready_group, ALL_READY_BITS, pdTRUE, pdTRUE,
						       pdMS_TO_TICKS(READY_TIMEOUT_MS));

		if ((bits & ALL_READY_BITS) == ALL_READY_BITS) {
			cycle++;
			uart_puts("cycle ");
			uart_put_u32(cycle);
			uart_puts(": workers ready\r\n");
		} else {
			uart_puts("timeout, ready bits=");
			uart_put_u32((uint32_t)(bits & ALL_READY_BITS));
			uart_puts("\r\n");
		}
	}
}

int main(void)
{
	UART0_BAUDDIV = configCPU_CLOCK_HZ / 115200U;
	UART0_CTRL = UART_CTRL_TX_EN;

	ready_group = xEventGroupCreate();
	if (ready_group == NULL) {
		for (;;) {
		}
	}

	if (xTaskCreate(controller_task, "ctrl", configMINIMAL_STACK_SIZE * 2U, NULL, tskIDLE_PRIORITY + 3U, NULL) != pdPASS) {
		for (;;) {
		}
	}
	if (xTaskCreate(sensor_task, "sensor", configMINIMAL_STACK_SIZE, NULL, tskIDLE_PRIORITY + 2U, NULL) != pdPASS) {
		for (;;) {
		}
	}
	if (xTaskCreate(actuator_task, "act", configMINIMAL_STACK_SIZE, NULL, tskIDLE_PRIORITY + 2U, NULL) != pdPASS) {
		for (;;) {
		}
	}

	vTaskStartScheduler();

	for (;;) {
	}
}
