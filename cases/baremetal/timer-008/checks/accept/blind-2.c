#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "swtimer.h"

/*
 * Software timer service for the pump controller.
 *
 * Each timer stores an absolute deadline. swt_tick(elapsed) covers the
 * window (base, base + elapsed] in one go: it repeatedly picks the armed
 * timer whose deadline is earliest in that window (ties -> lowest id),
 * moves the tick count to that deadline, re-arms or idles the timer and
 * runs its callback. Distances are measured from the window base with
 * unsigned subtraction, which is immune to the 32-bit wrap.
 */

typedef struct {
	uint32_t     due;
	uint32_t     reload;
	swt_callback fn;
	swt_mode     mode;
	bool         armed;
} sw_timer_t;

static sw_timer_t timers[SWT_MAX_TIMERS];
static uint32_t   tick_count;

#define NO_TIMER  SWT_MAX_TIMERS

static uint32_t critical_enter(void)
{
	uint32_t old;
	__asm volatile ("mrs %0, primask\n\tcpsid i" : "=r" (old) : : "memory");
	return old;
}

static void critical_exit(uint32_t old)
{
	__asm volatile ("msr primask, %0" : : "r" (old) : "memory");
}

static bool args_valid(unsigned id, uint32_t period_ticks, swt_mode mode,
		       swt_callback cb)
{
	return id < SWT_MAX_TIMERS
	    && period_ticks >= 1u && period_ticks <= SWT_MAX_PERIOD
	    && (unsigned)mode <= (unsigned)SWT_PERIODIC
	    && cb != NULL;
}

void swt_init(uint32_t start_tick)
{
	uint32_t pm = critical_enter();
	for (unsigned i = 0; i < SWT_MAX_TIMERS; i++)
		timers[i] = (sw_timer_t){ .armed = false };
	tick_count = start_tick;
	critical_exit(pm);
}

int swt_start(unsigned id, uint32_t period_ticks, swt_mode mode, swt_callback cb)
{
	if (!args_valid(id, period_ticks, mode, cb))
		return SWT_EINVAL;

	uint32_t pm = critical_enter();
	timers[id] = (sw_timer_t){
		.due    = tick_count + period_ticks,
		.reload = period_ticks,
		.fn     = cb,
		.mode   = mode,
		.armed  = true,
	};
	critical_exit(pm);
	return SWT_OK;
}

int swt_stop(unsigned id)
{
	if (id >= SWT_MAX_TIMERS)
		return SWT_EINVAL;

	uint32_t pm = critical_enter();
	bool was_armed = timers[id].armed;
	timers[id].armed = false;
	critical_exit(pm);

	return was_armed ? SWT_OK : SWT_EIDLE;
}

uint32_t swt_now(void)
{
	uint32_t pm = critical_enter();
	uint32_t t = tick_count;
	critical_exit(pm);
	return t;
}

/* Earliest armed timer with deadline in (base, base + span]; NO_TIMER if
 * none. *offset receives its distance from base. */
static unsigned next_due(uint32_t base, uint32_t span, uint32_t *offset)
{
	unsigned best = NO_TIMER;
	uint32_t best_off = 0;

	for (unsigned i = 0; i < SWT_MAX_TIMERS; i++) {
		if (!timers[i].armed)
			continue;
		uint32_t off = timers[i].due - base;
		if (off == 0u || off > span)
			continue;
		if (best == NO_TIMER || off < best_off) {   /* strict: lower id wins ties */
			best = i;
			best_off = off;
		}
	}
	*offset = best_off;
	return best;
}

void swt_tick(uint32_t elapsed)
{
	const uint32_t base = tick_count;
	uint32_t off;
	unsigned id;

	while ((id = next_due(base, elapsed, &off)) != NO_TIMER) {
		sw_timer_t *t = &timers[id];

		tick_count = base + off;          /* swt_now() == this deadline */

		if (t->mode == SWT_PERIODIC)
			t->due += t->reload;      /* drift-free: from the deadline */
		else
			t->armed = false;

		t->fn(id);
	}

	tick_count = base + elapsed;
}
