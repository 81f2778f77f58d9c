/* Flow statistics shared between the timer1 interrupt and the main loop.
 * Critical sections use BASEPRI so the commutation interrupt (timer0,
 * priority 0x40) is never masked. */
#include <stdint.h>
#include "flowstats.h"

#define NVIC_IPR_BASE   0xE000E400u
#define IRQ_TIMER0      8u
#define IRQ_TIMER1      9u
#define PRIO_TIMER0     0x40u
#define PRIO_TIMER1     0x80u

static volatile struct flow_stats live;

static inline uint32_t basepri_get(void)
{
	uint32_t v;
	__asm volatile ("mrs %0, basepri" : "=r" (v) :: "memory");
	return v;
}

static inline void basepri_set(uint32_t v)
{
	__asm volatile ("msr basepri, %0" :: "r" (v) : "memory");
}

/* Raises BASEPRI to v only if that masks more than now (never lowers it). */
static inline void basepri_raise(uint32_t v)
{
	__asm volatile ("msr basepri_max, %0" :: "r" (v) : "memory");
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

	uint32_t saved = basepri_get();
	basepri_raise(PRIO_TIMER1);
	stats_clear(&live);
	basepri_set(saved);
}

void flow_sample_isr(uint16_t sample)
{
	/* Runs at timer1 priority: the main loop cannot interrupt it, and
	 * timer0 does not touch the statistics. */
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
	uint32_t saved = basepri_get();
	basepri_raise(PRIO_TIMER1);     /* hold off timer1, never timer0 */

	out->count = live.count;
	out->sum = live.sum;
	out->min = live.min;
	out->max = live.max;
	for (unsigned i = 0; i < FLOW_BINS; i++)
		out->bins[i] = live.bins[i];
	stats_clear(&live);

	basepri_set(saved);
}
