#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"
#include "semphr.h"

/* CMSDK APB UART0 */
typedef struct {
	volatile uint32_t DATA;     /* 0x00 */
	volatile uint32_t STATE;    /* 0x04 */
	volatile uint32_t CTRL;     /* 0x08 */
	volatile uint32_t INTSTAT;  /* 0x0C */
	volatile uint32_t BAUDDIV;  /* 0x10 */
} cmsdk_uart_t;

#define UART0 ((cmsdk_uart_t *)0x40004000u)

/*
 * The calibration table and the lock that guards it. The lock is a
 * (recursive) mutex so that a task waiting for it lends its priority to the
 * holder: the holder then cannot be preempted by a task of intermediate
 * priority and the waiter's delay is bounded by the hold time.
 */
static SemaphoreHandle_t calib_lock;
static int32_t calib[16];

static void put_char(char c)
{
	while (UART0->STATE & 1u)
		;
	UART0->DATA = (uint8_t)c;
}

static void put_str(const char *s)
{
	while (*s)
		put_char(*s++);
}

static void put_dec(uint32_t v)
{
	char tmp[10];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10u);
		v /= 10u;
	} while (v);
	while (n)
		put_char(tmp[--n]);
}

/* "<msg> at <t>\r\n" with <t> sampled right before it is printed. */
static void stamp(const char *msg)
{
	vTaskSuspendAll();          /* keep the line in one piece */
	put_str(msg);
	put_str(" at ");
	put_dec((uint32_t)xTaskGetTickCount());
	put_str("\r\n");
	(void)xTaskResumeAll();
}

static void sleep_forever(void)
{
	for (;;)
		vTaskDelay(portMAX_DELAY);
}

static void spin_for(TickType_t from, TickType_t span)
{
	while (xTaskGetTickCount() - from < span)
		;
}

static void low(void *p)
{
	(void)p;
	xSemaphoreTakeRecursive(calib_lock, portMAX_DELAY);
	TickType_t t0 = xTaskGetTickCount();
	stamp("low: lock taken");
	for (int i = 0; xTaskGetTickCount() - t0 < 50; i = (i + 1) & 15)
		calib[i] += i;      /* the "update" keeps the CPU busy */
	stamp("low: releasing");
	xSemaphoreGiveRecursive(calib_lock);
	stamp("low: done");
	sleep_forever();
}

static void medium(void *p)
{
	(void)p;
	vTaskDelay(20);
	TickType_t t0 = xTaskGetTickCount();
	stamp("medium: running");
	spin_for(t0, 200);
	stamp("medium: finished");
	sleep_forever();
}

static void high(void *p)
{
	(void)p;
	vTaskDelay(10);
	stamp("high: waiting");
	if (xSemaphoreTakeRecursive(calib_lock, 100) != pdPASS) {
		stamp("high: timeout");
	} else {
		stamp("high: lock taken");
		xSemaphoreGiveRecursive(calib_lock);
	}
	sleep_forever();
}

int main(void)
{
	UART0->BAUDDIV = 25000000u / 115200u;
	UART0->CTRL = 1u;           /* TX enable */

	calib_lock = xSemaphoreCreateRecursiveMutex();

	BaseType_t ok = (calib_lock != NULL);
	if (ok)
		ok = xTaskCreate(low, "low", 256, NULL, 1, NULL) == pdPASS;
	if (ok)
		ok = xTaskCreate(medium, "medium", 256, NULL, 2, NULL) == pdPASS;
	if (ok)
		ok = xTaskCreate(high, "high", 256, NULL, 3, NULL) == pdPASS;

	if (ok)
		vTaskStartScheduler();

	/* Set-up failed (or the scheduler returned): stop here. */
	__asm volatile("cpsid i");
	for (;;)
		;
}
