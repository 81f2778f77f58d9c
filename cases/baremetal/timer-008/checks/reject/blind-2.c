/* defect: a one-shot timer is marked idle only after its callback returns, so a
 *   one-shot that restarts itself from its callback is killed, and swt_stop() on itself returns SWT_OK.
 * breaks: "A `SWT_ONESHOT` timer becomes idle before its callback runs."
 * must_fail: scenario_restart_from_own_callback, scenario_stop_from_own_callback
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "swtimer.h"

typedef struct {
	uint32_t     expiry;
	uint32_t     interval;
	swt_callback handler;
	swt_mode     mode;
	bool         running;
} swt_entry;

static swt_entry entries[SWT_MAX_TIMERS];
static uint32_t  now_ticks;

static inline uint32_t lock(void)
{
	uint32_t pm;
	__asm volatile ("mrs %0, primask\n\tcpsid i" : "=r" (pm) :: "memory");
	return pm;
}

static inline void unlock(uint32_t pm)
{
	__asm volatile ("msr primask, %0" :: "r" (pm) : "memory");
}

void swt_init(uint32_t start_tick)
{
	uint32_t pm = lock();
	for (unsigned i = 0; i < SWT_MAX_TIMERS; i++)
		entries[i].running = false;
	now_ticks = start_tick;
	unlock(pm);
}

int swt_start(unsigned id, uint32_t period_ticks, swt_mode mode, swt_callback cb)
{
	if (id >= SWT_MAX_TIMERS)
		return SWT_EINVAL;
	if (period_ticks < 1u || period_ticks > SWT_MAX_PERIOD)
		return SWT_EINVAL;
	if ((unsigned)mode > (unsigned)SWT_PERIODIC || cb == NULL)
		return SWT_EINVAL;

	uint32_t pm = lock();
	swt_entry *e = &entries[id];
	e->expiry   = now_ticks + period_ticks;
	e->interval = period_ticks;
	e->mode     = mode;
	e->handler  = cb;
	e->running  = true;
	unlock(pm);
	return SWT_OK;
}

int swt_stop(unsigned id)
{
	if (id >= SWT_MAX_TIMERS)
		return SWT_EINVAL;
	uint32_t pm = lock();
	bool was = entries[id].running;
	entries[id].running = false;
	unlock(pm);
	return was ? SWT_OK : SWT_EIDLE;
}

uint32_t swt_now(void)
{
	return now_ticks;
}

/* Process the window (start, start + elapsed]: always take the earliest
 * pending expiry (lowest id on a tie), distances measured from start. */
void swt_tick(uint32_t elapsed)
{
	const uint32_t start = now_ticks;

	for (;;) {
		int pick = -1;
		uint32_t pick_dist = 0;

		for (unsigned i = 0; i < SWT_MAX_TIMERS; i++) {
			if (!entries[i].running)
				continue;
			uint32_t dist = entries[i].expiry - start;
			if (dist == 0u || dist > elapsed)
				continue;
			if (pick < 0 || dist < pick_dist) {
				pick = (int)i;
				pick_dist = dist;
			}
		}
		if (pick < 0)
			break;

		swt_entry *e = &entries[pick];
		now_ticks = start + pick_dist;

		if (e->mode == SWT_PERIODIC)
			e->expiry += e->interval;

		e->handler((unsigned)pick);

		if (e->mode == SWT_ONESHOT)
			e->running = false;
	}

	now_ticks = start + elapsed;
}
