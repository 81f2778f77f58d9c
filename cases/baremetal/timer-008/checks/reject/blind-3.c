/* defect: when a periodic timer fires during catch-up, it is re-armed past the end
 *   of the current swt_tick window, so missed periods are skipped instead of each running.
 * breaks: "`swt_tick(elapsed)` must behave exactly as `elapsed` successive calls of `swt_tick(1)`: every deadline that the tick count passes or reaches is honoured, in deadline order, a periodic timer overdue by several periods runs once for each of them (so does a timer that a callback starts with a deadline inside the same call), and while a callback runs `swt_now()` returns that callback's deadline."
 * must_fail: scenario_periodic_no_drift_after_catch_up, scenario_catch_up_in_deadline_order
 */
#include <stddef.h>
#include <stdint.h>
#include "swtimer.h"

#define MODE_VALID(m)  ((m) == SWT_ONESHOT || (m) == SWT_PERIODIC)

struct soft_timer {
	uint32_t     when;      /* absolute expiry tick */
	uint32_t     period;
	swt_callback fn;
	uint8_t      periodic;
	uint8_t      armed;
};

static struct soft_timer st[SWT_MAX_TIMERS];
static volatile uint32_t cur_tick;

static uint32_t enter_critical(void)
{
	uint32_t primask;
	__asm volatile ("mrs %0, primask" : "=r" (primask));
	__asm volatile ("cpsid i" ::: "memory");
	return primask;
}

static void exit_critical(uint32_t primask)
{
	__asm volatile ("msr primask, %0" :: "r" (primask) : "memory");
}

void swt_init(uint32_t start_tick)
{
	uint32_t k = enter_critical();
	for (unsigned i = 0; i < SWT_MAX_TIMERS; i++) {
		st[i].armed = 0;
		st[i].fn = NULL;
	}
	cur_tick = start_tick;
	exit_critical(k);
}

int swt_start(unsigned id, uint32_t period_ticks, swt_mode mode, swt_callback cb)
{
	if (id >= SWT_MAX_TIMERS || period_ticks == 0u ||
	    period_ticks > SWT_MAX_PERIOD || !MODE_VALID(mode) || cb == NULL)
		return SWT_EINVAL;

	uint32_t k = enter_critical();
	st[id].when     = cur_tick + period_ticks;
	st[id].period   = period_ticks;
	st[id].fn       = cb;
	st[id].periodic = (mode == SWT_PERIODIC);
	st[id].armed    = 1;
	exit_critical(k);
	return SWT_OK;
}

int swt_stop(unsigned id)
{
	if (id >= SWT_MAX_TIMERS)
		return SWT_EINVAL;

	uint32_t k = enter_critical();
	int rc = st[id].armed ? SWT_OK : SWT_EIDLE;
	st[id].armed = 0;
	exit_critical(k);
	return rc;
}

uint32_t swt_now(void)
{
	return cur_tick;
}

void swt_tick(uint32_t elapsed)
{
	const uint32_t base = cur_tick;

	for (;;) {
		unsigned best = SWT_MAX_TIMERS;
		uint32_t best_ofs = UINT32_MAX;

		for (unsigned i = 0; i < SWT_MAX_TIMERS; i++) {
			if (!st[i].armed)
				continue;
			uint32_t ofs = st[i].when - base;   /* wrap-safe distance */
			if (ofs >= 1u && ofs <= elapsed && ofs < best_ofs) {
				best = i;
				best_ofs = ofs;
			}
		}
		if (best == SWT_MAX_TIMERS)
			break;

		struct soft_timer *t = &st[best];
		cur_tick = t->when;

		if (t->periodic) {
			do {
				t->when += t->period;
			} while ((uint32_t)(t->when - base) <= elapsed);
		} else {
			t->armed = 0;
		}
		t->fn(best);
	}

	cur_tick = base + elapsed;
}
