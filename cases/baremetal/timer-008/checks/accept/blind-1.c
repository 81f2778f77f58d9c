/* main.c - software timer service of the pump controller (bare metal,
 * Cortex-M3, no RTOS). Eight one-shot / periodic timers driven by the
 * SysTick tick; callbacks run from the tick interrupt inside swt_tick().
 */
#include <stddef.h>
#include <stdint.h>
#include "swtimer.h"

struct swt_slot {
	uint32_t     deadline;  /* absolute tick of the next expiry */
	uint32_t     period;    /* ticks between expiries */
	swt_callback cb;
	swt_mode     mode;
	uint8_t      running;   /* 1 = armed, 0 = idle */
};

static struct swt_slot g_slots[SWT_MAX_TIMERS];
static volatile uint32_t g_now;

/* ---- critical section: save PRIMASK, mask IRQs, restore afterwards ----
 * Restoring (instead of a blind "cpsie i") keeps nested use correct, e.g.
 * when swt_start()/swt_stop() are called from a callback inside the tick
 * interrupt or by code that already has interrupts masked. */
static inline uint32_t irq_lock(void)
{
	uint32_t primask;
	__asm volatile ("mrs %0, primask" : "=r" (primask) : : "memory");
	__asm volatile ("cpsid i" : : : "memory");
	return primask;
}

static inline void irq_unlock(uint32_t primask)
{
	__asm volatile ("msr primask, %0" : : "r" (primask) : "memory");
}

void swt_init(uint32_t start_tick)
{
	uint32_t key = irq_lock();
	for (unsigned id = 0; id < SWT_MAX_TIMERS; id++) {
		g_slots[id].running  = 0u;
		g_slots[id].deadline = 0u;
		g_slots[id].period   = 0u;
		g_slots[id].mode     = SWT_ONESHOT;
		g_slots[id].cb       = NULL;
	}
	g_now = start_tick;
	irq_unlock(key);
}

int swt_start(unsigned id, uint32_t period_ticks, swt_mode mode, swt_callback cb)
{
	if (id >= SWT_MAX_TIMERS)
		return SWT_EINVAL;
	if (period_ticks == 0u || period_ticks > SWT_MAX_PERIOD)
		return SWT_EINVAL;
	if (mode != SWT_ONESHOT && mode != SWT_PERIODIC)
		return SWT_EINVAL;
	if (cb == NULL)
		return SWT_EINVAL;

	uint32_t key = irq_lock();
	struct swt_slot *s = &g_slots[id];
	s->period   = period_ticks;
	s->mode     = mode;
	s->cb       = cb;
	s->deadline = g_now + period_ticks;   /* modulo 2^32 */
	s->running  = 1u;
	irq_unlock(key);

	return SWT_OK;
}

int swt_stop(unsigned id)
{
	if (id >= SWT_MAX_TIMERS)
		return SWT_EINVAL;

	uint32_t key = irq_lock();
	int rc = g_slots[id].running ? SWT_OK : SWT_EIDLE;
	g_slots[id].running = 0u;
	irq_unlock(key);

	return rc;
}

uint32_t swt_now(void)
{
	return g_now;
}

/* Runs from the SysTick interrupt. The tick is advanced one step at a time,
 * which makes swt_tick(n) identical to n calls of swt_tick(1): at every step
 * the timers whose deadline equals the new count fire, lowest id first.
 * Deadlines are only ever compared for equality, so the 32-bit wrap needs
 * no special handling. A callback cannot create a deadline at the current
 * step (period >= 1), so one pass over the ids per step is enough. */
void swt_tick(uint32_t elapsed)
{
	while (elapsed-- != 0u) {
		uint32_t now = g_now + 1u;
		g_now = now;

		for (unsigned id = 0; id < SWT_MAX_TIMERS; id++) {
			struct swt_slot *s = &g_slots[id];

			/* re-read each time: an earlier callback may have stopped
			 * or restarted this timer */
			if (!s->running || s->deadline != now)
				continue;

			swt_callback cb = s->cb;
			if (s->mode == SWT_PERIODIC)
				s->deadline = now + s->period;  /* == deadline + period */
			else
				s->running = 0u;                /* idle before the callback */

			cb(id);
		}
	}
}
