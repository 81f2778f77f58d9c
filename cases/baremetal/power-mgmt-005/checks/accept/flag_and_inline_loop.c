/*
 * Accepted variant: a boolean "tick" flag instead of a counter, the timer
 * reached through an array of registers, the statistics kept inline in
 * the main loop, and the race closed with masked check + WFI inline.
 */
#include <stdbool.h>
#include <stdint.h>
#include "board.h"

enum { T_CTRL, T_VALUE, T_RELOAD, T_INTCLEAR };
#define TIMER0 ((volatile uint32_t *)0x40000000u)
#define ISER0  (*(volatile uint32_t *)0xE000E100u)

static volatile bool tick;

void TIMER0_Handler(void)
{
	TIMER0[T_INTCLEAR] = 1u;
	tick = true;
}

static bool take_tick_or_sleep(void)
{
	bool due;

	__asm volatile ("cpsid i" ::: "memory");
	due = tick;
	if (due) {
		tick = false;
	} else {
		__asm volatile ("wfi\n\tcpsie i" ::: "memory");
		return false;
	}
	__asm volatile ("cpsie i" ::: "memory");
	return true;
}

int main(void)
{
	int32_t mn = 0, mx = 0;
	int64_t total = 0;
	unsigned n = 0;
	uint32_t w = 0;

	TIMER0[T_RELOAD] = 250000u - 1u;
	TIMER0[T_VALUE] = 250000u - 1u;
	TIMER0[T_CTRL] = 1u | 8u;
	ISER0 = 1u << 8;

	for (;;) {
		if (!take_tick_or_sleep()) {
			continue;
		}
		int32_t v = board_sensor_read();
		if (n == 0) {
			mn = mx = v;
			total = 0;
		}
		mn = v < mn ? v : mn;
		mx = v > mx ? v : mx;
		total += v;
		if (++n == 10) {
			int64_t q = total >= 0 ? (total + 5) / 10 : -((-total + 5) / 10);
			board_window(++w, mn, mx, (int32_t)q);
			n = 0;
		}
	}
}
