/* defect: usclock_now reads the base and then the counter with no protection against the period interrupt, so a period ending between the two reads (or pending) makes the clock step backwards by ~1000 us.
 * breaks: "It never goes backwards and never jumps: two successive calls differ by the time between them, including when a timer period ends between or during the calls (a wrap of the microsecond count from `0xFFFFFFFF` to 0 is a step of one microsecond, not a jump backwards)."
 * must_fail: scenario_never_goes_backwards
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
	uint32_t base = base_us;
	uint32_t value = DT1_VALUE;

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
	uint32_t elapsed = usclock_now() - t->start_us;   /* wraps correctly */
	return elapsed >= t->duration_us;
}

uint32_t timeout_remaining(const us_timeout *t)
{
	uint32_t elapsed = usclock_now() - t->start_us;
	if (elapsed >= t->duration_us)
		return 0u;
	return t->duration_us - elapsed;
}
