/*
 * Software timer service of the pump controller: eight one-shot or periodic
 * timers driven by swt_tick() from the SysTick interrupt.
 */
#include <stddef.h>
#include <stdint.h>
#include "swtimer.h"

struct swt_entry {
	uint32_t deadline;      /* tick at which the timer expires next */
	uint32_t period;
	swt_callback cb;
	swt_mode mode;
	uint8_t running;
};

static struct swt_entry table[SWT_MAX_TIMERS];
static volatile uint32_t tick_count;

static inline uint32_t irq_lock(void)
{
	uint32_t primask;
	__asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask) : : "memory");
	return primask;
}

static inline void irq_unlock(uint32_t primask)
{
	__asm__ volatile("msr primask, %0" : : "r"(primask) : "memory");
}

/* a is before b on the wrapping tick line */
static inline int before(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) < 0;
}

void swt_init(uint32_t start_tick)
{
	uint32_t key = irq_lock();
	for (unsigned i = 0; i < SWT_MAX_TIMERS; i++) {
		table[i].running = 0u;
		table[i].cb = NULL;
	}
	tick_count = start_tick;
	irq_unlock(key);
}

int swt_start(unsigned id, uint32_t period_ticks, swt_mode mode, swt_callback cb)
{
	if (id >= SWT_MAX_TIMERS || period_ticks == 0u || period_ticks > SWT_MAX_PERIOD ||
	    (mode != SWT_ONESHOT && mode != SWT_PERIODIC) || cb == NULL) {
		return SWT_EINVAL;
	}
	uint32_t key = irq_lock();
	struct swt_entry *t = &table[id];
	t->period = period_ticks;
	t->mode = mode;
	t->cb = cb;
	t->deadline = tick_count + period_ticks;
	t->running = 1u;
	irq_unlock(key);
	return SWT_OK;
}

int swt_stop(unsigned id)
{
	if (id >= SWT_MAX_TIMERS) {
		return SWT_EINVAL;
	}
	uint32_t key = irq_lock();
	int rc = table[id].running ? SWT_OK : SWT_EIDLE;
	table[id].running = 0u;
	irq_unlock(key);
	return rc;
}

uint32_t swt_now(void)
{
	return tick_count;
}

void swt_tick(uint32_t elapsed)
{
	uint32_t target = tick_count + elapsed;

	for (;;) {
		int due = -1;
		for (unsigned i = 0; i < SWT_MAX_TIMERS; i++) {
			const struct swt_entry *t = &table[i];
			if (!t->running || before(target, t->deadline)) {
				continue;
			}
			/* earliest deadline first; the lower id wins a tie */
			if (due < 0 || before(t->deadline, table[due].deadline)) {
				due = (int)i;
			}
		}
		if (due < 0) {
			break;
		}
		struct swt_entry *t = &table[due];
		tick_count = t->deadline;
		if (t->mode == SWT_PERIODIC) {
			t->deadline += t->period;
		} else {
			t->running = 0u;
		}
		t->cb((unsigned)due);
	}
	tick_count = target;
}
