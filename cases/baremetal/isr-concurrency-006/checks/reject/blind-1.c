/* defect: the critical section in flow_take masks interrupts with PRIMASK (cpsid i / cpsie i) instead of BASEPRI, so timer0 is held off during the copy.
 * breaks: "Therefore your critical sections hold off timer1 by raising `BASEPRI` to `0x80`; they must never set `PRIMASK` and never raise `BASEPRI` to a value that masks timer0."
 * must_fail: never_sets_primask, scenario_stress_timer0_never_masked
 */
#include <stdint.h>
#include "flowstats.h"

#define NVIC_IPR_BASE   0xE000E400u
#define IRQ_TIMER0      8u
#define IRQ_TIMER1      9u
#define PRIO_TIMER0     0x40u
#define PRIO_TIMER1     0x80u

static volatile struct flow_stats live;

static inline uint32_t irq_save(void)
{
	uint32_t primask;
	__asm volatile ("mrs %0, primask" : "=r" (primask) :: "memory");
	__asm volatile ("cpsid i" ::: "memory");
	return primask;
}

static inline void irq_restore(uint32_t primask)
{
	__asm volatile ("msr primask, %0" :: "r" (primask) : "memory");
}

static void stats_clear(volatile struct flow_stats *s)
{
	s->count = 0u;
	s->sum = 0u;
	s->min = 0xFFFFu;
	s->max = 0u;
	for (unsigned i = 0; i < FLOW_BINS; i++)
		s->bins[i] = 0u;
}

void flow_init(void)
{
	*(volatile uint8_t *)(NVIC_IPR_BASE + IRQ_TIMER0) = PRIO_TIMER0;
	*(volatile uint8_t *)(NVIC_IPR_BASE + IRQ_TIMER1) = PRIO_TIMER1;
	stats_clear(&live);
}

void flow_sample_isr(uint16_t sample)
{
	live.count++;
	live.sum += sample;
	if (sample < live.min)
		live.min = sample;
	if (sample > live.max)
		live.max = sample;
	live.bins[sample >> 12]++;
}

void flow_take(struct flow_stats *out)
{
	uint32_t key = irq_save();

	out->count = live.count;
	out->sum = live.sum;
	out->min = live.min;
	out->max = live.max;
	for (unsigned i = 0; i < FLOW_BINS; i++)
		out->bins[i] = live.bins[i];
	stats_clear(&live);

	irq_restore(key);
}
