/*
 * Flow-sensor statistics shared between the timer1 interrupt (IRQ 9,
 * priority 0x80) and the main loop. Timer0 (IRQ 8, priority 0x40) drives
 * the commutation and is never masked: the main loop's critical section
 * raises BASEPRI to 0x80, which holds off timer1 only.
 */
#include <stdint.h>
#include <string.h>
#include "flowstats.h"

#define NVIC_IPR_BYTE(irq)  (*(volatile uint8_t *)(0xE000E400u + (irq)))

#define TIMER0_IRQ      8u
#define TIMER1_IRQ      9u
#define PRIO_TIMER0     0x40u
#define PRIO_TIMER1     0x80u

static struct flow_stats live;

static void stats_clear(struct flow_stats *s)
{
	s->count = 0u;
	s->sum = 0u;
	s->min = 0xFFFFu;
	s->max = 0u;
	for (unsigned k = 0; k < FLOW_BINS; k++) {
		s->bins[k] = 0u;
	}
}

static inline uint32_t mask_timer1(void)
{
	uint32_t old;

	__asm volatile("mrs %0, basepri" : "=r"(old));
	/* BASEPRI_MAX only ever raises the masking level */
	__asm volatile("msr basepri_max, %0" : : "r"(PRIO_TIMER1) : "memory");
	return old;
}

static inline void unmask(uint32_t old)
{
	__asm volatile("msr basepri, %0" : : "r"(old) : "memory");
}

void flow_init(void)
{
	NVIC_IPR_BYTE(TIMER0_IRQ) = PRIO_TIMER0;
	NVIC_IPR_BYTE(TIMER1_IRQ) = PRIO_TIMER1;
	stats_clear(&live);
}

void flow_sample_isr(uint16_t sample)
{
	live.count++;
	live.sum += sample;
	if (sample < live.min) {
		live.min = sample;
	}
	if (sample > live.max) {
		live.max = sample;
	}
	live.bins[sample >> 12]++;
}

void flow_take(struct flow_stats *out)
{
	uint32_t old = mask_timer1();

	memcpy(out, &live, sizeof(*out));
	stats_clear(&live);
	unmask(old);
}
