#include <stddef.h>
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"
#include "event_groups.h"

/* CMSDK APB UART register block of the mps2-an385 console (UART0). */
typedef struct {
	volatile uint32_t DATA;      /* 0x00 */
	volatile uint32_t STATE;     /* 0x04, bit 0: TX buffer full */
	volatile uint32_t CTRL;      /* 0x08, bit 0: TX enable */
	volatile uint32_t INTSTATUS; /* 0x0C */
	volatile uint32_t BAUDDIV;   /* 0x10 */
} cmsdk_uart_t;

#define CONSOLE          ((cmsdk_uart_t *)0x40004000UL)
#define CONSOLE_BAUD     115200UL
#define STATE_TX_FULL    0x1UL
#define CTRL_TX_ENABLE   0x1UL

/* One event-group bit per worker. */
#define EV_SENSOR        ((EventBits_t)0x01U)
#define EV_ACTUATOR      ((EventBits_t)0x02U)
#define EV_BOTH          (EV_SENSOR | EV_ACTUATOR)

#define SENSOR_PERIOD_MS    100U
#define ACTUATOR_PERIOD_MS  150U
#define RENDEZVOUS_LIMIT_MS 500U

static EventGroupHandle_t rendezvous;

static void console_write(const char *text)
{
	for (; *text != '\0'; ++text) {
		while ((CONSOLE->STATE & STATE_TX_FULL) != 0U) {
		}
		CONSOLE->DATA = (uint32_t)(unsigned char)*text;
	}
}

/* Decimal, most significant digit first (at most ten levels deep). */
static void console_write_dec(uint32_t value)
{
	char digit[2];

	if (value >= 10U) {
		console_write_dec(value / 10U);
	}
	digit[0] = (char)('0' + (value % 10U));
	digit[1] = '\0';
	console_write(digit);
}

static void controller(void *arg)
{
	const TickType_t limit = pdMS_TO_TICKS(RENDEZVOUS_LIMIT_MS);
	uint32_t cycles = 0U;

	(void)arg;
	console_write("controller started\r\n");

	for (;;) {
		/* Both bits required; they are cleared only when the wait succeeds. */
		const EventBits_t ready = xEventGroupWaitBits(rendezvous, EV_BOTH, pdTRUE, pdTRUE, limit) & EV_BOTH;

		if (ready != EV_BOTH) {
			console_write("timeout, ready bits=");
			console_write_dec((uint32_t)ready);
			console_write("\r\n");
		} else {
			++cycles;
			console_write("cycle ");
			console_write_dec(cycles);
			console_write(": workers ready\r\n");
		}
	}
}

/* Shared body of both workers: report readiness once per period, forever. */
static void report_ready_every(EventBits_t bit, uint32_t period_ms)
{
	const TickType_t period = pdMS_TO_TICKS(period_ms);

	for (;;) {
		vTaskDelay(period);
		(void)xEventGroupSetBits(rendezvous, bit);
	}
}

static void sensor_worker(void *arg)
{
	(void)arg;
	report_ready_every(EV_SENSOR, SENSOR_PERIOD_MS);
}

static void actuator_worker(void *arg)
{
	(void)arg;
	report_ready_every(EV_ACTUATOR, ACTUATOR_PERIOD_MS);
}

struct task_spec {
	TaskFunction_t entry;
	const char *name;
	configSTACK_DEPTH_TYPE stack_words;
	UBaseType_t priority;
};

static const struct task_spec app_tasks[] = {
	{ controller, "controller", 2U * configMINIMAL_STACK_SIZE, tskIDLE_PRIORITY + 2U },
	{ sensor_worker, "sensor", configMINIMAL_STACK_SIZE, tskIDLE_PRIORITY + 1U },
	{ actuator_worker, "actuator", configMINIMAL_STACK_SIZE, tskIDLE_PRIORITY + 1U },
};

int main(void)
{
	size_t i;

	CONSOLE->BAUDDIV = configCPU_CLOCK_HZ / CONSOLE_BAUD;
	CONSOLE->CTRL = CTRL_TX_ENABLE;

	rendezvous = xEventGroupCreate();
	if (rendezvous == NULL) {
		goto setup_failed;
	}

	for (i = 0U; i < sizeof(app_tasks) / sizeof(app_tasks[0]); i++) {
		const struct task_spec *spec = &app_tasks[i];

		if (xTaskCreate(spec->entry, spec->name, spec->stack_words, NULL, spec->priority, NULL) != pdPASS) {
			goto setup_failed;
		}
	}

	vTaskStartScheduler();

	/* Reached when set-up failed, or if the scheduler could not start. */
setup_failed:
	taskDISABLE_INTERRUPTS();
	for (;;) {
	}
}
