/* defect: the expiry test uses a plain unsigned "deadline <= now" compare, so a
 *   deadline that wraps past 0xFFFFFFFF looks already due and fires at the next tick.
 * breaks: "It wraps from `0xFFFFFFFF` to 0, and every timer keeps working across the wrap (a deadline just after the wrap is later than a tick just before it)."
 * must_fail: scenario_tick_count_wraps
 */
#include <stddef.h>
#include <stdint.h>
#include "swtimer.h"

/* Software timer service (pump controller, bare metal, SysTick driven). */

static struct {
	uint32_t deadline;
	uint32_t period;
	swt_callback cb;
	swt_mode mode;
	int active;
} tmr[SWT_MAX_TIMERS];

static volatile uint32_t ticks;

#define IRQ_SAVE(pm)    do { __asm volatile ("mrs %0, primask" : "=r" (pm) :: "memory"); \
                             __asm volatile ("cpsid i" ::: "memory"); } while (0)
#define IRQ_RESTORE(pm) __asm volatile ("msr primask, %0" :: "r" (pm) : "memory")

void swt_init(uint32_t start_tick)
{
	uint32_t pm;
	IRQ_SAVE(pm);
	for (unsigned i = 0; i < SWT_MAX_TIMERS; i++) {
		tmr[i].active = 0;
		tmr[i].cb = NULL;
	}
	ticks = start_tick;
	IRQ_RESTORE(pm);
}

int swt_start(unsigned id, uint32_t period_ticks, swt_mode mode, swt_callback cb)
{
	uint32_t pm;

	if (id >= SWT_MAX_TIMERS || cb == NULL ||
	    period_ticks == 0u || period_ticks > SWT_MAX_PERIOD ||
	    (mode != SWT_ONESHOT && mode != SWT_PERIODIC))
		return SWT_EINVAL;

	IRQ_SAVE(pm);
	tmr[id].deadline = ticks + period_ticks;
	tmr[id].period = period_ticks;
	tmr[id].mode = mode;
	tmr[id].cb = cb;
	tmr[id].active = 1;
	IRQ_RESTORE(pm);
	return SWT_OK;
}

int swt_stop(unsigned id)
{
	uint32_t pm;
	int rc;

	if (id >= SWT_MAX_TIMERS)
		return SWT_EINVAL;

	IRQ_SAVE(pm);
	rc = tmr[id].active ? SWT_OK : SWT_EIDLE;
	tmr[id].active = 0;
	IRQ_RESTORE(pm);
	return rc;
}

uint32_t swt_now(void)
{
	return ticks;
}

void swt_tick(uint32_t elapsed)
{
	for (uint32_t step = 0; step < elapsed; step++) {
		ticks++;
		for (unsigned i = 0; i < SWT_MAX_TIMERS; i++) {
			if (!tmr[i].active || tmr[i].deadline > ticks)
				continue;
			swt_callback cb = tmr[i].cb;
			if (tmr[i].mode == SWT_PERIODIC)
				tmr[i].deadline += tmr[i].period;
			else
				tmr[i].active = 0;
			cb(i);
		}
	}
}
