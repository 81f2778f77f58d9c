/* power-mgmt-005 reference: duty-cycled sampling on timer0, WFI between jobs. */
#include <stdint.h>
#include "board.h"

#define TIMER0_CTRL     (*(volatile uint32_t *)0x40000000u)
#define TIMER0_VALUE    (*(volatile uint32_t *)0x40000004u)
#define TIMER0_RELOAD   (*(volatile uint32_t *)0x40000008u)
#define TIMER0_INTCLEAR (*(volatile uint32_t *)0x4000000Cu)
#define NVIC_ISER0      (*(volatile uint32_t *)0xE000E100u)

#define CTRL_ENABLE     (1u << 0)
#define CTRL_IRQ_ENABLE (1u << 3)
#define PERIOD_CLOCKS   250000u          /* 10 ms at 25 MHz */
#define WINDOW_LEN      10

static volatile uint32_t periods_due;

void TIMER0_Handler(void)
{
	TIMER0_INTCLEAR = 1u;
	periods_due++;
}

/* Mean of a window rounded to nearest, halves away from zero. */
static int32_t rounded_mean(int64_t sum, int64_t n)
{
	if (sum >= 0) {
		return (int32_t)((sum + n / 2) / n);
	}
	return (int32_t)-((-sum + n / 2) / n);
}

/* Sleep until a period is due; returns with one period taken. */
static void wait_for_period(void)
{
	for (;;) {
		__asm__ volatile("cpsid i" ::: "memory");
		if (periods_due != 0u) {
			periods_due--;
			__asm__ volatile("cpsie i" ::: "memory");
			return;
		}
		__asm__ volatile("dsb\n\twfi\n\tcpsie i\n\tisb" ::: "memory");
	}
}

int main(void)
{
	uint32_t window = 1;
	int count = 0;
	int32_t lo = 0, hi = 0;
	int64_t sum = 0;

	TIMER0_CTRL = 0u;
	TIMER0_RELOAD = PERIOD_CLOCKS - 1u;
	TIMER0_VALUE = PERIOD_CLOCKS - 1u;
	TIMER0_INTCLEAR = 1u;
	TIMER0_CTRL = CTRL_ENABLE | CTRL_IRQ_ENABLE;
	NVIC_ISER0 = 1u << 8;

	for (;;) {
		wait_for_period();
		int32_t v = board_sensor_read();
		if (count == 0 || v < lo) {
			lo = v;
		}
		if (count == 0 || v > hi) {
			hi = v;
		}
		sum += v;
		if (++count == WINDOW_LEN) {
			board_window(window++, lo, hi, rounded_mean(sum, WINDOW_LEN));
			count = 0;
			sum = 0;
		}
	}
}
