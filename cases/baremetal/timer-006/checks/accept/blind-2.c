#include <stdbool.h>
#include <stdint.h>
#include "usclock.h"

/*
 * Dual timer 1, periodic 32-bit at 25 MHz, one interrupt every 10 ms.
 * The interrupt only counts finished periods; usclock_now() combines the
 * period count with the counter without masking interrupts: it re-reads
 * until the period count and the raw interrupt flag were stable around the
 * counter read, and counts a finished-but-not-yet-handled period itself.
 */

typedef struct {
	volatile uint32_t load;
	volatile const uint32_t value;
	volatile uint32_t control;
	volatile uint32_t intclr;
	volatile const uint32_t ris;
	volatile const uint32_t mis;
} cmsdk_timer_t;

static cmsdk_timer_t *const dt1 = (cmsdk_timer_t *)0x40002000;

enum {
	TICKS_PER_US = 25,
	PERIOD_US = 10000,
	RELOAD = PERIOD_US * TICKS_PER_US - 1,   /* a period is RELOAD + 1 ticks */
};

static volatile uint32_t periods;   /* periods completed and handled */
static volatile uint32_t origin_us; /* start_us passed to usclock_init */

void usclock_init(uint32_t start_us)
{
	dt1->control = 0;                           /* stop timer 1 */
	dt1->intclr = 0;
	*(volatile uint32_t *)0xE000E280 = 1u << 10;   /* ICPR0: clear pending */

	origin_us = start_us;
	periods = 0;

	dt1->load = RELOAD;
	/* enable | periodic | interrupt enable | 32-bit, prescale /1 */
	dt1->control = (1u << 7) | (1u << 6) | (1u << 5) | (1u << 1);
	*(volatile uint32_t *)0xE000E100 = 1u << 10;   /* ISER0 */
}

void DUALTIMER_IRQHandler(void)
{
	if (dt1->ris & 1u) {
		dt1->intclr = 0;
		periods = periods + 1u;
	}
}

uint32_t usclock_now(void)
{
	uint32_t p, p_again, flag, flag_again, count;

	do {
		p = periods;
		flag = dt1->ris & 1u;
		count = dt1->value;
		flag_again = dt1->ris & 1u;
		p_again = periods;
	} while (p != p_again || flag != flag_again);

	/* flag set on both sides: the counter already reloaded before it was
	 * read, and that finished period is not in `periods` yet. */
	p += flag;

	return origin_us + p * (uint32_t)PERIOD_US
	       + (RELOAD - count) / TICKS_PER_US;
}

int timeout_start(us_timeout *t, uint32_t duration_us)
{
	if (duration_us > USCLOCK_MAX_TIMEOUT)
		return -1;

	*t = (us_timeout){ .start_us = usclock_now(), .duration_us = duration_us };
	return 0;
}

/* Signed distance to the deadline; <= 0 once expired. Valid because a
 * duration is at most 2^31 - 1. */
static int32_t until_deadline(const us_timeout *t)
{
	return (int32_t)(t->start_us + t->duration_us - usclock_now());
}

bool timeout_expired(const us_timeout *t)
{
	return until_deadline(t) <= 0;
}

uint32_t timeout_remaining(const us_timeout *t)
{
	int32_t left = until_deadline(t);
	return left > 0 ? (uint32_t)left : 0u;
}
