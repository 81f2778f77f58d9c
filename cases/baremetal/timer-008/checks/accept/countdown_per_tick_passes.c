/*
 * Pump controller soft timers, countdown flavour: every timer keeps the
 * number of ticks left, and swt_tick(n) replays the n ticks one by one
 * (decrement everything first, then run the timers that reached zero in id
 * order), which gives deadline order, the id tie-break and swt_now() at the
 * deadline without comparing wrapping tick values at all.
 */
#include <stdint.h>
#include <stdbool.h>
#include "swtimer.h"

#define CRIT_ENTER(s) do { __asm__ volatile("mrs %0, PRIMASK" : "=r"(s)); __asm__ volatile("cpsid i" ::: "memory"); } while (0)
#define CRIT_EXIT(s)  __asm__ volatile("msr PRIMASK, %0" :: "r"(s) : "memory")

static uint32_t ticks_left[SWT_MAX_TIMERS];
static uint32_t reload[SWT_MAX_TIMERS];
static swt_callback handler[SWT_MAX_TIMERS];
static bool periodic[SWT_MAX_TIMERS];
static bool armed[SWT_MAX_TIMERS];
static volatile uint32_t g_now;

static bool valid_mode(swt_mode m)
{
	switch (m) {
	case SWT_ONESHOT:
	case SWT_PERIODIC:
		return true;
	default:
		return false;
	}
}

void swt_init(uint32_t start_tick)
{
	uint32_t s;
	CRIT_ENTER(s);
	for (unsigned i = 0; i < SWT_MAX_TIMERS; ++i) {
		armed[i] = false;
		ticks_left[i] = 0;
	}
	g_now = start_tick;
	CRIT_EXIT(s);
}

uint32_t swt_now(void)
{
	return g_now;
}

int swt_start(unsigned id, uint32_t period_ticks, swt_mode mode, swt_callback cb)
{
	if (id >= SWT_MAX_TIMERS)
		return SWT_EINVAL;
	if (period_ticks < 1u || period_ticks > SWT_MAX_PERIOD)
		return SWT_EINVAL;
	if (!valid_mode(mode) || cb == 0)
		return SWT_EINVAL;

	uint32_t s;
	CRIT_ENTER(s);
	ticks_left[id] = period_ticks;
	reload[id] = period_ticks;
	handler[id] = cb;
	periodic[id] = (mode == SWT_PERIODIC);
	armed[id] = true;
	CRIT_EXIT(s);
	return SWT_OK;
}

int swt_stop(unsigned id)
{
	if (id >= SWT_MAX_TIMERS)
		return SWT_EINVAL;
	uint32_t s;
	CRIT_ENTER(s);
	bool was = armed[id];
	armed[id] = false;
	CRIT_EXIT(s);
	return was ? SWT_OK : SWT_EIDLE;
}

static void one_tick(void)
{
	g_now = g_now + 1u;
	for (unsigned i = 0; i < SWT_MAX_TIMERS; ++i) {
		if (armed[i])
			--ticks_left[i];
	}
	/* A timer (re)started by a callback below gets ticks_left >= 1 and is
	 * not due in this tick; a stopped one is no longer armed. */
	for (unsigned i = 0; i < SWT_MAX_TIMERS; ++i) {
		if (!armed[i] || ticks_left[i] != 0u)
			continue;
		if (periodic[i])
			ticks_left[i] = reload[i];
		else
			armed[i] = false;
		handler[i](i);
	}
}

void swt_tick(uint32_t elapsed)
{
	while (elapsed-- > 0u)
		one_tick();
}
