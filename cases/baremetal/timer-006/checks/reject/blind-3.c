/* defect: timeouts compare absolute times (now >= start + duration) instead of elapsed time, so a deadline that wraps past 0xFFFFFFFF expires immediately.
 * breaks: "Both must work when the microsecond count wraps from `0xFFFFFFFF` to 0 during the timeout."
 * must_fail: scenario_timeout_across_wrap, scenario_remaining_counts_down
 */
/* Microsecond clock on CMSDK dual timer 1 (25 MHz) with wrap-safe timeouts.
 *
 * Timer 1 runs periodic, 32-bit, prescale /1, and interrupts once per
 * millisecond (LOAD + 1 = 25000 clocks). The interrupt adds 1000 us to a
 * base; usclock_now() adds the microseconds elapsed in the current period,
 * read from the counter. */
#include <stdbool.h>
#include <stdint.h>
#include "usclock.h"

#define DT1_BASE        0x40002000u
#define DT1_LOAD        (*(volatile uint32_t *)(DT1_BASE + 0x00u))
#define DT1_VALUE       (*(volatile uint32_t *)(DT1_BASE + 0x04u))
#define DT1_CONTROL     (*(volatile uint32_t *)(DT1_BASE + 0x08u))
#define DT1_INTCLR      (*(volatile uint32_t *)(DT1_BASE + 0x0Cu))
#define DT1_RIS         (*(volatile uint32_t *)(DT1_BASE + 0x10u))

#define CTRL_32BIT      (1u << 1)
#define CTRL_INTEN      (1u << 5)
#define CTRL_PERIODIC   (1u << 6)
#define CTRL_ENABLE     (1u << 7)

#define NVIC_ISER0      (*(volatile uint32_t *)0xE000E100u)
#define NVIC_ICPR0      (*(volatile uint32_t *)0xE000E280u)
#define DUALTIMER_IRQn  10u

#define CLOCKS_PER_US   25u
#define PERIOD_US       1000u
#define PERIOD_CLOCKS   (PERIOD_US * CLOCKS_PER_US)
#define LOAD_VALUE      (PERIOD_CLOCKS - 1u)    /* one period = LOAD + 1 */

static volatile uint32_t base_us;   /* clock value at the start of the period */

static inline uint32_t irq_lock(void)
{
	uint32_t pm;
	__asm volatile ("mrs %0, primask\n\tcpsid i" : "=r" (pm) :: "memory");
	return pm;
}

static inline void irq_unlock(uint32_t pm)
{
	__asm volatile ("msr primask, %0" :: "r" (pm) : "memory");
}

void usclock_init(uint32_t start_us)
{
	uint32_t key = irq_lock();

	DT1_CONTROL = 0u;                       /* stop */
	DT1_INTCLR = 1u;
	NVIC_ICPR0 = 1u << DUALTIMER_IRQn;      /* drop a stale pending one */
	base_us = start_us;
	DT1_LOAD = LOAD_VALUE;                  /* also restarts the count */
	DT1_CONTROL = CTRL_ENABLE | CTRL_PERIODIC | CTRL_INTEN | CTRL_32BIT;
	NVIC_ISER0 = 1u << DUALTIMER_IRQn;

	irq_unlock(key);
}

void DUALTIMER_IRQHandler(void)
{
	if (DT1_RIS & 1u) {
		DT1_INTCLR = 1u;
		base_us += PERIOD_US;
	}
}

uint32_t usclock_now(void)
{
	uint32_t key = irq_lock();
	uint32_t base = base_us;
	uint32_t value = DT1_VALUE;

	if (DT1_RIS & 1u) {
		/* The period ended but the interrupt has not run yet: the counter
		 * has (or had, by now) reloaded, so read it again and count the
		 * finished period here. */
		value = DT1_VALUE;
		base += PERIOD_US;
	}
	irq_unlock(key);

	return base + (LOAD_VALUE - value) / CLOCKS_PER_US;
}

int timeout_start(us_timeout *t, uint32_t duration_us)
{
	if (duration_us > USCLOCK_MAX_TIMEOUT)
		return -1;
	t->start_us = usclock_now();
	t->duration_us = duration_us;
	return 0;
}

bool timeout_expired(const us_timeout *t)
{
	uint32_t deadline = t->start_us + t->duration_us;
	return usclock_now() >= deadline;
}

uint32_t timeout_remaining(const us_timeout *t)
{
	uint32_t deadline = t->start_us + t->duration_us;
	uint32_t now = usclock_now();
	if (now >= deadline)
		return 0u;
	return deadline - now;
}
