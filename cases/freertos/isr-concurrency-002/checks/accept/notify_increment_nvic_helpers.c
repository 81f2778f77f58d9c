/*
 * mps2-an385 / FreeRTOS V11.1.0: CMSDK TIMER0 fires at 10 Hz, its handler only
 * acknowledges the timer and bumps the sampler task's notification value
 * (eIncrement); the task collects every pending event with xTaskNotifyWait.
 */
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"

#define REG32(addr) (*(volatile uint32_t *)(addr))

/* CMSDK APB timer 0 */
#define TMR0            0x40000000UL
#define TMR_CTRL        0x00U
#define TMR_VALUE       0x04U
#define TMR_RELOAD      0x08U
#define TMR_INTCLEAR    0x0CU
#define TMR_CTRL_EN     0x01U
#define TMR_CTRL_IRQEN  0x08U
#define TMR_RATE_HZ     10U
#define TMR_PERIOD      (configCPU_CLOCK_HZ / TMR_RATE_HZ)

/* CMSDK APB UART 0 */
#define UART0           0x40004000UL
#define UART_DATA       0x00U
#define UART_STATE      0x04U
#define UART_CTRL       0x08U
#define UART_BAUDDIV    0x10U
#define UART_TXFULL     0x01U
#define UART_TXEN       0x01U
#define CONSOLE_BAUD    115200U

/* Cortex-M3 NVIC, without CMSIS */
#define NVIC_ISER       ((volatile uint32_t *)0xE000E100UL)
#define NVIC_IPR        ((volatile uint8_t *)0xE000E400UL)
#define TIMER0_IRQN     8U
/* One level below the highest priority allowed to call FromISR APIs. */
#define TIMER0_LEVEL    (configLIBRARY_MAX_SYSCALL_INTERRUPT_PRIORITY + 1U)

#define SAMPLER_STACK_WORDS  (configMINIMAL_STACK_SIZE + 128U)
#define SAMPLER_PRIORITY     (tskIDLE_PRIORITY + 3U)

static TaskHandle_t sampler_handle = NULL;

/* level is the logical priority 0..7; only the top configPRIO_BITS bits of
 * each 8-bit priority field are implemented. */
static void nvic_set_priority(uint32_t irq, uint32_t level)
{
	NVIC_IPR[irq] = (uint8_t)(level << (8U - configPRIO_BITS));
}

static void nvic_enable(uint32_t irq)
{
	NVIC_ISER[irq / 32U] = 1UL << (irq % 32U);
}

void TIMER0_IRQHandler(void)
{
	BaseType_t switch_needed = pdFALSE;

	REG32(TMR0 + TMR_INTCLEAR) = 1U;
	(void)xTaskNotifyFromISR(sampler_handle, 0U, eIncrement, &switch_needed);
	portYIELD_FROM_ISR(switch_needed);
}

static void console_write(const char *text)
{
	for (; *text != '\0'; ++text) {
		while ((REG32(UART0 + UART_STATE) & UART_TXFULL) != 0U) {
		}
		REG32(UART0 + UART_DATA) = (uint8_t)*text;
	}
}

/* "timer events: <total>\r\n" into out (at least 32 bytes). */
static void format_report(char *out, uint32_t total)
{
	static const char prefix[] = "timer events: ";
	char rev[10];
	int ndig = 0;
	unsigned pos;

	for (pos = 0U; prefix[pos] != '\0'; ++pos) {
		out[pos] = prefix[pos];
	}
	do {
		rev[ndig++] = (char)('0' + (total % 10U));
		total /= 10U;
	} while (total > 0U);
	while (ndig > 0) {
		out[pos++] = rev[--ndig];
	}
	out[pos++] = '\r';
	out[pos++] = '\n';
	out[pos] = '\0';
}

static void sampler(void *ctx)
{
	uint32_t seen = 0U;
	char line[32];

	(void)ctx;
	for (;;) {
		uint32_t fresh = 0U;

		/* Returns the count accumulated since the last wait and zeroes it
		 * atomically, so interrupts during the printing are kept. */
		if (xTaskNotifyWait(0U, UINT32_MAX, &fresh, portMAX_DELAY) != pdPASS) {
			continue;
		}
		seen += fresh;
		format_report(line, seen);
		console_write(line);
	}
}

static BaseType_t sampler_start(void)
{
	return xTaskCreate(sampler, "sampler", SAMPLER_STACK_WORDS, NULL, SAMPLER_PRIORITY, &sampler_handle);
}

static void timer0_start(void)
{
	REG32(TMR0 + TMR_CTRL) = 0U;
	REG32(TMR0 + TMR_RELOAD) = TMR_PERIOD;
	REG32(TMR0 + TMR_VALUE) = TMR_PERIOD;
	REG32(TMR0 + TMR_INTCLEAR) = 1U;
	REG32(TMR0 + TMR_CTRL) = TMR_CTRL_EN | TMR_CTRL_IRQEN;
}

int main(void)
{
	REG32(UART0 + UART_BAUDDIV) = configCPU_CLOCK_HZ / CONSOLE_BAUD;
	REG32(UART0 + UART_CTRL) = UART_TXEN;

	if (sampler_start() != pdPASS) {
		console_write("sampler: task creation failed\r\n");
		for (;;) {
		}
	}

	timer0_start();
	nvic_set_priority(TIMER0_IRQN, TIMER0_LEVEL);
	nvic_enable(TIMER0_IRQN);

	vTaskStartScheduler();
	for (;;) {
	}
}
