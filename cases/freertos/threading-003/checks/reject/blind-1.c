/* defect: xEventGroupWaitBits is called with xClearOnExit = pdFALSE and nothing clears the bits afterwards, so after the first rendezvous every later cycle reuses stale reports and runs back-to-back.
 * breaks: "A readiness report must be consumed by the cycle that used it."
 * must_fail: wait_clears_bits_on_exit, scenario_cycle_uses_fresh_reports
 */
/*
 * Event-group rendezvous: a controller task runs a cycle only when both the
 * sensor and the actuator worker have reported ready.
 * FreeRTOS V11.1.0, GCC/ARM_CM3 port, QEMU mps2-an385.
 */
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"
#include "event_groups.h"

/* ---------------------------------------------------------------------- */
/* CMSDK APB UART0                                                         */
/* ---------------------------------------------------------------------- */
#define UART0_BASE      0x40004000UL
#define UART0_DATA      (*(volatile uint32_t *)(UART0_BASE + 0x00))
#define UART0_STATE     (*(volatile uint32_t *)(UART0_BASE + 0x04))
#define UART0_CTRL      (*(volatile uint32_t *)(UART0_BASE + 0x08))
#define UART0_BAUDDIV   (*(volatile uint32_t *)(UART0_BASE + 0x10))

#define UART_STATE_TXFULL  (1UL << 0)
#define UART_CTRL_TXEN     (1UL << 0)

#define UART_BAUD          115200UL

static void uart_init(void)
{
	UART0_BAUDDIV = configCPU_CLOCK_HZ / UART_BAUD;
	UART0_CTRL = UART_CTRL_TXEN;
}

static void uart_putc(char c)
{
	while (UART0_STATE & UART_STATE_TXFULL) {
	}
	UART0_DATA = (uint32_t)(uint8_t)c;
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
		buf[i++] = (char)('0' + (v % 10U));
		v /= 10U;
	} while (v != 0U);

	while (i > 0) {
		uart_putc(buf[--i]);
	}
}

/* ---------------------------------------------------------------------- */
/* Application                                                             */
/* ---------------------------------------------------------------------- */
#define SENSOR_READY_BIT    ((EventBits_t)(1U << 0))
#define ACTUATOR_READY_BIT  ((EventBits_t)(1U << 1))
#define ALL_READY_BITS      (SENSOR_READY_BIT | ACTUATOR_READY_BIT)

#define SENSOR_PERIOD_MS    100U
#define ACTUATOR_PERIOD_MS  150U
#define RENDEZVOUS_TIMEOUT_MS 500U

#define WORKER_PRIORITY     (tskIDLE_PRIORITY + 1)
#define CONTROLLER_PRIORITY (tskIDLE_PRIORITY + 2)

#define WORKER_STACK_WORDS     (configMINIMAL_STACK_SIZE)
#define CONTROLLER_STACK_WORDS (configMINIMAL_STACK_SIZE * 2)

static EventGroupHandle_t ready_events;

static void sensor_task(void *arg)
{
	TickType_t last_wake = xTaskGetTickCount();

	(void)arg;

	for (;;) {
		vTaskDelayUntil(&last_wake, pdMS_TO_TICKS(SENSOR_PERIOD_MS));
		(void)xEventGroupSetBits(ready_events, SENSOR_READY_BIT);
	}
}

static void actuator_task(void *arg)
{
	TickType_t last_wake = xTaskGetTickCount();

	(void)arg;

	for (;;) {
		vTaskDelayUntil(&last_wake, pdMS_TO_TICKS(ACTUATOR_PERIOD_MS));
		(void)xEventGroupSetBits(ready_events, ACTUATOR_READY_BIT);
	}
}

static void controller_task(void *arg)
{
	uint32_t cycle = 0;
	EventBits_t bits;

	(void)arg;

	uart_puts("controller started\r\n");

	for (;;) {
		/* Wait for both bits to be reported by the workers.
		 */
		bits = xEventGroupWaitBits(ready_events,
					   ALL_READY_BITS,
					   pdFALSE, /* xClearOnExit */
					   pdTRUE,  /* wait for all */
					   pdMS_TO_TICKS(RENDEZVOUS_TIMEOUT_MS));

		if ((bits & ALL_READY_BITS) == ALL_READY_BITS) {
			cycle++;
			uart_puts("cycle ");
			uart_putu(cycle);
			uart_puts(": workers ready\r\n");
		} else {
			uart_puts("timeout, ready bits=");
			uart_putu((uint32_t)(bits & ALL_READY_BITS));
			uart_puts("\r\n");
		}
	}
}

static void halt(const char *why)
{
	uart_puts("setup failed: ");
	uart_puts(why);
	uart_puts("\r\n");
	taskDISABLE_INTERRUPTS();
	for (;;) {
	}
}

void vApplicationMallocFailedHook(void)
{
	halt("malloc");
}

void vApplicationStackOverflowHook(TaskHandle_t xTask, char *pcTaskName)
{
	(void)xTask;
	(void)pcTaskName;
	halt("stack overflow");
}

int main(void)
{
	uart_init();

	ready_events = xEventGroupCreate();
	if (ready_events == NULL) {
		halt("event group");
	}

	if (xTaskCreate(sensor_task, "sensor", WORKER_STACK_WORDS, NULL,
			WORKER_PRIORITY, NULL) != pdPASS) {
		halt("sensor task");
	}

	if (xTaskCreate(actuator_task, "actuator", WORKER_STACK_WORDS, NULL,
			WORKER_PRIORITY, NULL) != pdPASS) {
		halt("actuator task");
	}

	if (xTaskCreate(controller_task, "controller", CONTROLLER_STACK_WORDS,
			NULL, CONTROLLER_PRIORITY, NULL) != pdPASS) {
		halt("controller task");
	}

	vTaskStartScheduler();

	/* Only reached if the scheduler could not start (e.g. no heap for the
	 * idle task). */
	halt("scheduler");
	return 0;
}
