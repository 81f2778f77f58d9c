/* defect: the logger task is created with xTaskCreate, which needs the heap
 * breaks: "No heap: create every kernel object with its …Static API"
 * must_fail: L1
 */
#include <stdbool.h>
#include <stdint.h>

#include "FreeRTOS.h"
#include "queue.h"
#include "semphr.h"
#include "task.h"
#include "timers.h"

#define UART0_BASE    0x40004000UL
#define UART0_DATA    (*(volatile uint32_t *)(UART0_BASE + 0x00U))
#define UART0_STATE   (*(volatile uint32_t *)(UART0_BASE + 0x04U))
#define UART0_CTRL    (*(volatile uint32_t *)(UART0_BASE + 0x08U))
#define UART0_BAUDDIV (*(volatile uint32_t *)(UART0_BASE + 0x10U))

#define UART_STATE_TX_FULL (1UL << 0)
#define UART_STATE_RX_FULL (1UL << 1)
#define UART_CTRL_TX_EN    (1UL << 0)
#define UART_CTRL_RX_EN    (1UL << 1)

#define STAMP_QUEUE_LEN 4U
#define SAMPLE_PERIOD   50U
#define RUN_MAX         20U
#define LINE_MAX        24U
#define CONTROL_STACK   (configMINIMAL_STACK_SIZE * 2U)
#define LOGGER_STACK    (configMINIMAL_STACK_SIZE * 2U)

static StaticTask_t idle_tcb;
static StackType_t idle_stack[configMINIMAL_STACK_SIZE];
static StaticTask_t timer_tcb;
static StackType_t timer_stack[configTIMER_TASK_STACK_DEPTH];

static StaticTask_t control_tcb;
static StackType_t control_stack[CONTROL_STACK];
static StaticTask_t logger_tcb;
static StackType_t logger_stack[LOGGER_STACK];

static StaticQueue_t stamp_queue_cb;
static uint8_t stamp_queue_storage[STAMP_QUEUE_LEN * sizeof(TickType_t)];
static QueueHandle_t stamp_queue;

static StaticSemaphore_t print_mutex_cb;
static SemaphoreHandle_t print_mutex;
static StaticSemaphore_t run_done_cb;
static SemaphoreHandle_t run_done;

static StaticTimer_t sample_timer_cb;
static TimerHandle_t sample_timer;

static volatile uint32_t run_samples;
static volatile TickType_t run_t0;

void vApplicationGetIdleTaskMemory(StaticTask_t **tcb, StackType_t **stack, configSTACK_DEPTH_TYPE *size)
{
	*tcb = &idle_tcb;
	*stack = idle_stack;
	*size = configMINIMAL_STACK_SIZE;
}

void vApplicationGetTimerTaskMemory(StaticTask_t **tcb, StackType_t **stack, configSTACK_DEPTH_TYPE *size)
{
	*tcb = &timer_tcb;
	*stack = timer_stack;
	*size = configTIMER_TASK_STACK_DEPTH;
}

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

static char uart_getc(void)
{
	while (!(UART0_STATE & UART_STATE_RX_FULL)) {
	}
	return (char)(UART0_DATA & 0xFFU);
}

static bool read_line(char *buf, uint32_t size)
{
	uint32_t len = 0;
	bool fits = true;

	for (;;) {
		char ch = uart_getc();

		if (ch == '\n') {
			break;
		}
		if (len < size - 1U) {
			buf[len++] = ch;
		} else {
			fits = false;
		}
	}
	if (len > 0U && buf[len - 1U] == '\r') {
		len--;
	}
	buf[len] = '\0';
	return fits;
}

static void print_line2(const char *a, uint32_t v, const char *b)
{
	(void)xSemaphoreTake(print_mutex, portMAX_DELAY);
	uart_puts(a);
	uart_putu(v);
	uart_puts(b);
	uart_puts("\r\n");
	(void)xSemaphoreGive(print_mutex);
}

static bool parse_count(const char *s, uint32_t *n)
{
	uint32_t v = 0;
	uint32_t digits = 0;

	for (; *s >= '0' && *s <= '9'; s++) {
		if (++digits > 3U) {
			return false;
		}
		v = v * 10U + (uint32_t)(*s - '0');
	}
	if (digits == 0U || *s != '\0' || v < 1U || v > RUN_MAX) {
		return false;
	}
	*n = v;
	return true;
}

static void sample_cb(TimerHandle_t t)
{
	TickType_t now = xTaskGetTickCount();

	(void)t;
	(void)xQueueSend(stamp_queue, &now, 0);
}

static void control_task(void *arg)
{
	char line[LINE_MAX];
	uint32_t n;

	(void)arg;
	for (;;) {
		if (!read_line(line, sizeof line) || !parse_count(line, &n)) {
			(void)xSemaphoreTake(print_mutex, portMAX_DELAY);
			uart_puts("error\r\n");
			(void)xSemaphoreGive(print_mutex);
			continue;
		}
		print_line2("run: ", n, " samples");
		run_samples = n;
		run_t0 = xTaskGetTickCount();
		(void)xTimerStart(sample_timer, portMAX_DELAY);
		(void)xSemaphoreTake(run_done, portMAX_DELAY);
		print_line2("run done: ", n, " samples");
	}
}

static void logger_task(void *arg)
{
	TickType_t stamp;
	uint32_t k = 0;

	(void)arg;
	for (;;) {
		(void)xQueueReceive(stamp_queue, &stamp, portMAX_DELAY);
		if (k >= run_samples) {
			continue; /* an expiry that raced the stop */
		}
		k++;
		(void)xSemaphoreTake(print_mutex, portMAX_DELAY);
		uart_puts("sample ");
		uart_putu(k);
		uart_puts(" at +");
		uart_putu((uint32_t)(stamp - run_t0));
		uart_puts("\r\n");
		(void)xSemaphoreGive(print_mutex);
		if (k == run_samples) {
			(void)xTimerStop(sample_timer, portMAX_DELAY);
			xQueueReset(stamp_queue);
			k = 0;
			run_samples = 0;
			(void)xSemaphoreGive(run_done);
		}
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
	UART0_CTRL = UART_CTRL_TX_EN | UART_CTRL_RX_EN;

	stamp_queue = xQueueCreateStatic(STAMP_QUEUE_LEN, sizeof(TickType_t), stamp_queue_storage, &stamp_queue_cb);
	print_mutex = xSemaphoreCreateMutexStatic(&print_mutex_cb);
	run_done = xSemaphoreCreateBinaryStatic(&run_done_cb);
	sample_timer = xTimerCreateStatic("sample", SAMPLE_PERIOD, pdTRUE, NULL, sample_cb, &sample_timer_cb);
	(void)xTaskCreateStatic(control_task, "control", CONTROL_STACK, NULL, 1, control_stack, &control_tcb);
	(void)xTaskCreate(logger_task, "logger", LOGGER_STACK, NULL, 2, NULL);

	vTaskStartScheduler();
	halt();
	return 0;
}
