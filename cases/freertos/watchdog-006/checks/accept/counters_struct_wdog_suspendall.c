/* Accepted variant: check-in counters compared with the monitor's last
 * snapshot, register structs for the UART and the watchdog, whole lines kept
 * together by suspending the scheduler, one task function per worker. */
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"

void board_exit(int status);

typedef struct {
	volatile uint32_t DATA, STATE, CTRL, INTSTATUS, BAUDDIV;
} uart_t;

typedef struct {
	volatile uint32_t LOAD;          /* 0x000 */
	volatile uint32_t VALUE;         /* 0x004 */
	volatile uint32_t CONTROL;       /* 0x008 */
	volatile uint32_t INTCLR;        /* 0x00C */
	volatile uint32_t RIS;           /* 0x010 */
	volatile uint32_t MIS;           /* 0x014 */
	uint32_t reserved[762];          /* 0x018 .. 0xBFC */
	volatile uint32_t LOCK;          /* 0xC00 */
} wdog_t;

#define UART0 ((uart_t *)0x40004000UL)
#define WDOG  ((wdog_t *)0x40008000UL)
#define WDOG_KEY 0x1ACCE551UL

static volatile uint32_t beats[3];
static volatile uint8_t frozen[3];
static const char *const names[3] = { "sensor", "control", "comms" };

static void raw_puts(const char *s)
{
	while (*s) {
		while (UART0->STATE & 1U) { }
		UART0->DATA = (uint8_t)*s++;
	}
}

static void say(const char *a, const char *b, const char *c)
{
	vTaskSuspendAll();
	raw_puts(a);
	raw_puts(b);
	raw_puts(c);
	raw_puts("\r\n");
	(void)xTaskResumeAll();
}

static const char *num(uint32_t v, char *buf)
{
	char *p = buf + 11;
	*p = '\0';
	do {
		*--p = (char)('0' + v % 10U);
		v /= 10U;
	} while (v);
	return p;
}

void NMI_Handler(void)
{
	raw_puts("watchdog: NMI, system halted\r\n");
	board_exit(3);
}

static void beat(unsigned idx, TickType_t every)
{
	for (;;) {
		vTaskDelay(every);
		if (!frozen[idx]) {
			beats[idx]++;
		}
	}
}

static void sensor_task(void *p) { (void)p; beat(0, pdMS_TO_TICKS(20)); }
static void control_task(void *p) { (void)p; beat(1, pdMS_TO_TICKS(50)); }
static void comms_task(void *p) { (void)p; beat(2, pdMS_TO_TICKS(80)); }

static void monitor_task(void *p)
{
	(void)p;
	uint32_t last[3] = { 0, 0, 0 };
	uint32_t k = 0;
	TickType_t t = xTaskGetTickCount();
	char b[12];

	for (;;) {
		vTaskDelayUntil(&t, pdMS_TO_TICKS(100));
		int missing = 0;
		uint32_t now[3];
		for (int i = 0; i < 3; i++) {
			now[i] = beats[i];
			if (now[i] == last[i]) {
				missing = 1;
			}
		}
		if (!missing) {
			WDOG->LOCK = WDOG_KEY;
			WDOG->INTCLR = 0xFFU;
			WDOG->LOCK = 1U;
			for (int i = 0; i < 3; i++) {
				last[i] = now[i];
			}
			say("monitor: check ", num(++k, b), " ok");
			continue;
		}
		vTaskSuspendAll();
		for (int i = 0; i < 3; i++) {
			if (now[i] == last[i]) {
				raw_puts("monitor: worker ");
				raw_puts(num((uint32_t)i + 1U, b));
				raw_puts(" (");
				raw_puts(names[i]);
				raw_puts(") missed its check-in\r\n");
			}
		}
		(void)xTaskResumeAll();
		vTaskSuspend(NULL);
	}
}

static void console_task(void *p)
{
	(void)p;
	char cmd[24];
	unsigned n = 0;
	for (;;) {
		while (!(UART0->STATE & 2U)) {
			vTaskDelay(pdMS_TO_TICKS(10));
		}
		char ch = (char)UART0->DATA;
		if (ch != '\n') {
			if (n < sizeof cmd - 1U) {
				cmd[n] = ch;
			}
			n++;
			continue;
		}
		if (n >= sizeof cmd) {
			n = 0;
			say("console: unknown command", "", "");
			continue;
		}
		if (n && cmd[n - 1] == '\r') {
			n--;
		}
		cmd[n] = '\0';
		int w = -1;
		if (n == 7 && cmd[0] == 's' && cmd[1] == 't' && cmd[2] == 'a' && cmd[3] == 'l' && cmd[4] == 'l' && cmd[5] == ' ') {
			w = cmd[6] - '0';
		}
		n = 0;
		if (w >= 1 && w <= 3) {
			char b[12];
			frozen[w - 1] = 1;
			say("console: worker ", num((uint32_t)w, b), " stalled");
		} else {
			say("console: unknown command", "", "");
		}
	}
}

int main(void)
{
	UART0->BAUDDIV = 217U;
	UART0->CTRL = 3U;

	static TaskFunction_t const fns[] = { sensor_task, control_task, comms_task };
	for (int i = 0; i < 3; i++) {
		if (xTaskCreate(fns[i], names[i], 256, NULL, 2, NULL) != pdPASS) {
			goto fail;
		}
	}
	if (xTaskCreate(monitor_task, "mon", 256, NULL, 4, NULL) != pdPASS) {
		goto fail;
	}
	if (xTaskCreate(console_task, "con", 256, NULL, 1, NULL) != pdPASS) {
		goto fail;
	}

	WDOG->LOCK = WDOG_KEY;
	WDOG->LOAD = 300U * (configCPU_CLOCK_HZ / 1000U);
	WDOG->CONTROL = 0x3U;
	WDOG->LOCK = 0U;
	raw_puts("watchdog armed\r\n");

	vTaskStartScheduler();
fail:
	taskDISABLE_INTERRUPTS();
	for (;;) { }
}
