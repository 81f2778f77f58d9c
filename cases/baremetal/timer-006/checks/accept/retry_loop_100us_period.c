/* Flow-meter time base: dual timer 1 interrupts every 100 us; the clock is
 * the interrupt count's microseconds plus the counter's progress. Readers
 * retry instead of masking interrupts. */
#include <stdint.h>
#include <stdbool.h>
#include "usclock.h"

struct dual_timer {
	volatile uint32_t load;
	volatile uint32_t value;
	volatile uint32_t control;
	volatile uint32_t intclr;
	volatile uint32_t ris;
	volatile uint32_t mis;
	volatile uint32_t bgload;
};

#define TIMER1 ((struct dual_timer *)0x40002000u)
#define ISER0  (*(volatile uint32_t *)0xE000E100u)

enum { TICK_US = 100, CLK_PER_US = 25, RELOAD = TICK_US * CLK_PER_US - 1 };

static volatile uint32_t ticks_us;

void DUALTIMER_IRQHandler(void)
{
	if (TIMER1->mis & 1u) {
		TIMER1->intclr = 0u;
		ticks_us = ticks_us + TICK_US;
	}
}

void usclock_init(uint32_t start_us)
{
	TIMER1->control = 0u;
	TIMER1->intclr = 0u;
	ticks_us = start_us;
	TIMER1->load = RELOAD;
	TIMER1->control = 0x80u | 0x40u | 0x20u | 0x02u;
	ISER0 = 1u << 10;
}

uint32_t usclock_now(void)
{
	uint32_t before, after, count, raw;

	do {
		before = ticks_us;
		count = TIMER1->value;
		raw = TIMER1->ris;
		after = ticks_us;
	} while (before != after);

	if (raw & 1u) {
		/* wrapped, interrupt not served yet: count again from the new period */
		count = TIMER1->value;
		before += TICK_US;
	}
	return before + (uint32_t)(RELOAD - count) / CLK_PER_US;
}

int timeout_start(us_timeout *t, uint32_t duration_us)
{
	if (duration_us > USCLOCK_MAX_TIMEOUT)
		return -1;
	us_timeout fresh = { .start_us = usclock_now(), .duration_us = duration_us };
	*t = fresh;
	return 0;
}

uint32_t timeout_remaining(const us_timeout *t)
{
	uint32_t gone = usclock_now() - t->start_us;
	return gone < t->duration_us ? t->duration_us - gone : 0u;
}

bool timeout_expired(const us_timeout *t)
{
	return timeout_remaining(t) == 0u;
}
