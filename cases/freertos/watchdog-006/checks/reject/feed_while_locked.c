/* defect: the monitor feeds the watchdog without unlocking it first (the registers are locked
 *         after configuration), so every feed is ignored and the NMI fires 300 ms after start
 * breaks: "If every worker has checked in at least once since the previous run (for the first run: since the scheduler started), it feeds the watchdog by writing INTCLR"
 * must_fail: scenario_healthy_run_no_nmi
 */
#include <stdbool.h>
#include <stdint.h>

#include "FreeRTOS.h"
#include "event_groups.h"
#include "semphr.h"
#include "task.h"

void board_exit(int status);

#define UART0_BASE    0x40004000UL
#define UART0_DATA    (*(volatile uint32_t *)(UART0_BASE + 0x00U))
#define UART0_STATE   (*(volatile uint32_t *)(UART0_BASE + 0x04U))
#define UART0_CTRL    (*(volatile uint32_t *)(UART0_BASE + 0x08U))
#define UART0_BAUDDIV (*(volatile uint32_t *)(UART0_BASE + 0x10U))

#define UART_STATE_TX_FULL (1UL << 0)
#define UART_STATE_RX_FULL (1UL << 1)
#define UART_CTRL_TX_EN    (1UL << 0)
#define UART_CTRL_RX_EN    (1UL << 1)

#define WDOG_BASE     0x40008000UL
#define WDOG_LOAD     (*(volatile uint32_t *)(WDOG_BASE + 0x000U))
#define WDOG_CONTROL  (*(volatile uint32_t *)(WDOG_BASE + 0x008U))
#define WDOG_INTCLR   (*(volatile uint32_t *)(WDOG_BASE + 0x00CU))
#define WDOG_LOCK     (*(volatile uint32_t *)(WDOG_BASE + 0xC00U))

#define WDOG_UNLOCK_KEY   0x1ACCE551UL
#define WDOG_CTRL_INTEN   (1UL << 0)
#define WDOG_CTRL_RESEN   (1UL << 1)
#define WDOG_TIMEOUT_MS   300U
#define WDOG_CLOCK_HZ     25000000UL

#define MONITOR_PERIOD_MS 100U
#define NUM_WORKERS       3U
#define ALL_WORKERS       ((EventBits_t)((1U << NUM_WORKERS) - 1U))

typedef struct {
	const char *name;
	uint32_t period_ms;
} worker_t;

static const worker_t workers[NUM_WORKERS] = {
	{ "sensor", 20U },
	{ "control", 50U },
	{ "comms", 80U },
};

static EventGroupHandle_t checkins;
static SemaphoreHandle_t print_lock;
static volatile bool stalled[NUM_WORKERS];

/* ---- console output ---- */

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

/* Prints "<a><n><b>\r\n" as one line that no other task can split. */
static void print_line(const char *a, int32_t n, const char *b)
{
	xSemaphoreTake(print_lock, portMAX_DELAY);
	uart_puts(a);
	if (n >= 0) {
		uart_putu((uint32_t)n);
	}
	uart_puts(b);
	uart_puts("\r\n");
	xSemaphoreGive(print_lock);
}

/* ---- watchdog ---- */

static void wdog_write(volatile uint32_t *reg, uint32_t value)
{
	WDOG_LOCK = WDOG_UNLOCK_KEY;
	*reg = value;
	WDOG_LOCK = 0U;
}

static void wdog_start(void)
{
	wdog_write(&WDOG_LOAD, WDOG_CLOCK_HZ / 1000U * WDOG_TIMEOUT_MS);
	wdog_write(&WDOG_CONTROL, WDOG_CTRL_INTEN | WDOG_CTRL_RESEN);
}

static void wdog_feed(void)
{
	WDOG_INTCLR = 1U;
}

void NMI_Handler(void)
{
	uart_puts("watchdog: NMI, system halted\r\n");
	board_exit(3);
}

/* ---- tasks ---- */

static void worker_task(void *arg)
{
	uint32_t w = (uint32_t)arg;

	for (;;) {
		vTaskDelay(pdMS_TO_TICKS(workers[w].period_ms));
		if (!stalled[w]) {
			xEventGroupSetBits(checkins, (EventBits_t)(1U << w));
		}
	}
}

static void monitor_task(void *arg)
{
	TickType_t wake = xTaskGetTickCount();
	uint32_t checks = 0;

	(void)arg;
	for (;;) {
		vTaskDelayUntil(&wake, pdMS_TO_TICKS(MONITOR_PERIOD_MS));

		EventBits_t seen = xEventGroupClearBits(checkins, ALL_WORKERS) & ALL_WORKERS;

		if (seen == ALL_WORKERS) {
			wdog_feed();
			print_line("monitor: check ", (int32_t)++checks, " ok");
			continue;
		}
		xSemaphoreTake(print_lock, portMAX_DELAY);
		for (uint32_t w = 0; w < NUM_WORKERS; w++) {
			if ((seen & (1U << w)) == 0U) {
				uart_puts("monitor: worker ");
				uart_putu(w + 1U);
				uart_puts(" (");
				uart_puts(workers[w].name);
				uart_puts(") missed its check-in\r\n");
			}
		}
		xSemaphoreGive(print_lock);
		/* No more feeds: the watchdog NMI follows. */
		for (;;) {
			vTaskSuspend(NULL);
		}
	}
}

static void console_task(void *arg)
{
	char line[16];
	uint32_t len = 0;
	bool overflow = false;

	(void)arg;
	for (;;) {
		if (!(UART0_STATE & UART_STATE_RX_FULL)) {
			vTaskDelay(pdMS_TO_TICKS(5));
			continue;
		}
		char ch = (char)(UART0_DATA & 0xFFU);

		if (ch != '\n') {
			if (len < sizeof(line) - 1U) {
				line[len++] = ch;
			} else {
				overflow = true;
			}
			continue;
		}
		if (len > 0U && line[len - 1U] == '\r') {
			len--;
		}
		line[len] = '\0';
		if (!overflow && len == 7U && line[0] == 's' && line[1] == 't' && line[2] == 'a' && line[3] == 'l' &&
		    line[4] == 'l' && line[5] == ' ' && line[6] >= '1' && line[6] <= '3') {
			uint32_t w = (uint32_t)(line[6] - '1');

			stalled[w] = true;
			print_line("console: worker ", (int32_t)(w + 1U), " stalled");
		} else {
			print_line("console: unknown command", -1, "");
		}
		len = 0;
		overflow = false;
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

	checkins = xEventGroupCreate();
	print_lock = xSemaphoreCreateMutex();
	if (checkins == NULL || print_lock == NULL) {
		halt();
	}
	for (uint32_t w = 0; w < NUM_WORKERS; w++) {
		if (xTaskCreate(worker_task, workers[w].name, configMINIMAL_STACK_SIZE * 2U, (void *)w, 2, NULL) != pdPASS) {
			halt();
		}
	}
	if (xTaskCreate(monitor_task, "monitor", configMINIMAL_STACK_SIZE * 2U, NULL, 4, NULL) != pdPASS ||
	    xTaskCreate(console_task, "console", configMINIMAL_STACK_SIZE * 2U, NULL, 1, NULL) != pdPASS) {
		halt();
	}

	wdog_start();
	uart_puts("watchdog armed\r\n");
	vTaskStartScheduler();
	halt();
	return 0;
}
