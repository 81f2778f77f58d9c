/*
 * Microsecond clock on CMSDK dual timer 1: periodic 1 ms interrupt (25 000
 * ticks of the 25 MHz clock) adds 1000 us to a base; usclock_now() adds the
 * microseconds elapsed in the current period, taking care of a period that
 * ended but whose interrupt has not been served yet.
 */
#include <stdbool.h>
#include <stdint.h>
#include "usclock.h"

#define DT1_LOAD     (*(volatile uint32_t *)0x40002000u)
#define DT1_VALUE    (*(volatile uint32_t *)0x40002004u)
#define DT1_CTRL     (*(volatile uint32_t *)0x40002008u)
#define DT1_INTCLR   (*(volatile uint32_t *)0x4000200Cu)
#define DT1_RIS      (*(volatile uint32_t *)0x40002010u)
#define NVIC_ISER0   (*(volatile uint32_t *)0xE000E100u)

#define CTRL_32BIT     (1u << 1)
#define CTRL_INTEN     (1u << 5)
#define CTRL_PERIODIC  (1u << 6)
#define CTRL_ENABLE    (1u << 7)

#define TICKS_PER_US   25u
#define PERIOD_US      1000u
#define DUALTIMER_IRQ  10u

static volatile uint32_t base_us;

void DUALTIMER_IRQHandler(void)
{
	DT1_INTCLR = 1u;
	base_us += PERIOD_US;
}

void usclock_init(uint32_t start_us)
{
	DT1_CTRL = 0u;
	DT1_INTCLR = 1u;
	base_us = start_us;
	DT1_LOAD = PERIOD_US * TICKS_PER_US - 1u;
	DT1_CTRL = CTRL_ENABLE | CTRL_PERIODIC | CTRL_INTEN | CTRL_32BIT;
	NVIC_ISER0 = 1u << DUALTIMER_IRQ;
}

uint32_t usclock_now(void)
{
	uint32_t primask, base, value;

	__asm volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask) : : "memory");
	value = DT1_VALUE;
	base = base_us;
	if (DT1_RIS & 1u) {
		/* the period ended and its interrupt is still pending */
		value = DT1_VALUE;
		base += PERIOD_US;
	}
	__asm volatile("msr primask, %0" : : "r"(primask) : "memory");
	return base + (PERIOD_US * TICKS_PER_US - 1u - value) / TICKS_PER_US;
}

int timeout_start(us_timeout *t, uint32_t duration_us)
{
	if (duration_us > USCLOCK_MAX_TIMEOUT) {
		return -1;
	}
	t->start_us = usclock_now();
	t->duration_us = duration_us;
	return 0;
}

bool timeout_expired(const us_timeout *t)
{
	return (uint32_t)(usclock_now() - t->start_us) >= t->duration_us;
}

uint32_t timeout_remaining(const us_timeout *t)
{
	uint32_t elapsed = usclock_now() - t->start_us;

	return elapsed >= t->duration_us ? 0u : t->duration_us - elapsed;
}
