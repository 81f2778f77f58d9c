#include <stddef.h>
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"
#include "event_groups.h"

/* Arm CMSDK APB UART0 on mps2-an385 */
typedef struct {
	volatile uint32_t DATA;     /* 0x00 */
	volatile uint32_t STATE;    /* 0x04 */
	volatile uint32_t CTRL;     /* 0x08 */
	volatile uint32_t INTSTATUS;/* 0x0C */
	volatile uint32_t BAUDDIV;  /* 0x10 */
} cmsdk_uart_t;

#define UART0 ((cmsdk_uart_t *)0x40004000UL)

static void console_init(void)
{
	UART0->CTRL = 0U;
	UART0->BAUDDIV = 25000000UL / 115200UL; /* 217 */
	UART0->CTRL = 1U;                       /* TX enable */
}

static void console_write(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		while ((UART0->STATE & 1U) != 0U) {
			/* TX buffer full */
		}
		UART0->DATA = (uint8_t)s[i];
	}
}

/* Append a string; returns new length. */
static size_t str_append(char *dst, size_t pos, size_t cap, const char *src)
{
	while (*src != '\0' && pos < cap) {
		dst[pos++] = *src++;
	}
	return pos;
}

/* Append an unsigned decimal; returns new length. */
static size_t dec_append(char *dst, size_t pos, size_t cap, unsigned long v)
{
	char tmp[12];
	size_t n = 0;

	do {
		tmp[n++] = (char)('0' + (v % 10UL));
		v /= 10UL;
	} while (v != 0UL && n < sizeof(tmp));

	while (n > 0U && pos < cap) {
		dst[pos++] = tmp[--n];
	}
	return pos;
}

#define EVT_SENSOR   (1UL << 0)
#define EVT_ACTUATOR (1UL << 1)
#define EVT_WORKERS  (EVT_SENSOR | EVT_ACTUATOR)

typedef struct {
	const char *name;
	EventBits_t bit;
	uint32_t period_ms;
} worker_cfg_t;

static const worker_cfg_t workers[] = {
	{ "sensor",   EVT_SENSOR,   100U },
	{ "actuator", EVT_ACTUATOR, 150U },
};

static EventGroupHandle_t g_ready;

static void worker_task(void *param)
{
	const worker_cfg_t *cfg = (const worker_cfg_t *)param;
	const TickType_t period = pdMS_TO_TICKS(cfg->period_ms);
	TickType_t wake = xTaskGetTickCount();

	for (;;) {
		(void)xTaskDelayUntil(&wake, period);
		xEventGroupSetBits(g_ready, cfg->bit);
	}
}

static void controller_task(void *param)
{
	char line[48];
	unsigned long n = 1UL;

	(void)param;

	static const char banner[] = "controller started\r\n";
	console_write(banner, sizeof(banner) - 1U);

	for (;;) {
		EventBits_t got = xEventGroupWaitBits(g_ready, EVT_WORKERS,
						      pdTRUE, pdTRUE,
						      pdMS_TO_TICKS(500));
		size_t len = 0;

		if ((got & EVT_WORKERS) != EVT_WORKERS) {
			/* Timed out: do not run the cycle. Partial reports stay set. */
			len = str_append(line, len, sizeof(line), "timeout, ready bits=");
			len = dec_append(line, len, sizeof(line),
					 (unsigned long)(got & EVT_WORKERS));
			len = str_append(line, len, sizeof(line), "\r\n");
			console_write(line, len);
			continue;
		}

		len = str_append(line, len, sizeof(line), "cycle ");
		len = dec_append(line, len, sizeof(line), n);
		len = str_append(line, len, sizeof(line), ": workers ready\r\n");
		console_write(line, len);
		n++;
	}
}

static void fatal(const char *msg)
{
	const char *p = msg;

	while (*p != '\0') {
		p++;
	}
	console_write(msg, (size_t)(p - msg));
	taskDISABLE_INTERRUPTS();
	for (;;) {
	}
}

int main(void)
{
	BaseType_t ok = pdPASS;

	console_init();

	g_ready = xEventGroupCreate();
	if (g_ready == NULL) {
		fatal("error: event group creation failed\r\n");
	}

	for (size_t i = 0; i < sizeof(workers) / sizeof(workers[0]); i++) {
		ok = xTaskCreate(worker_task, workers[i].name,
				 configMINIMAL_STACK_SIZE,
				 (void *)&workers[i], tskIDLE_PRIORITY + 1U, NULL);
		if (ok != pdPASS) {
			fatal("error: worker task creation failed\r\n");
		}
	}

	ok = xTaskCreate(controller_task, "ctrl", configMINIMAL_STACK_SIZE * 2U,
			 NULL, tskIDLE_PRIORITY + 2U, NULL);
	if (ok != pdPASS) {
		fatal("error: controller task creation failed\r\n");
	}

	vTaskStartScheduler();

	fatal("error: scheduler returned\r\n");
	return 0;
}
