/* Pump controller statistics: two banks; the ISR fills the active one, the
 * main loop flips banks under a BASEPRI critical section (a few
 * instructions), then copies and clears the retired bank at leisure. */
#include <stddef.h>
#include <stdint.h>
#include "flowstats.h"

#define IPR2          (*(volatile uint32_t *)0xE000E408u)   /* IRQ 8..11 */
#define TIMER1_LEVEL  0x80u

static struct flow_stats bank[2];
static volatile uint32_t active;

static void reset_bank(struct flow_stats *b)
{
	uint32_t k;

	b->count = 0;
	b->sum = 0;
	b->min = UINT16_MAX;
	b->max = 0;
	for (k = 0; k < FLOW_BINS; k++)
		b->bins[k] = 0;
}

void flow_init(void)
{
	uint32_t v = IPR2;

	v &= ~0xFFFFu;
	v |= (0x80u << 8) | 0x40u;
	IPR2 = v;
	active = 0;
	reset_bank(&bank[0]);
	reset_bank(&bank[1]);
}

void flow_sample_isr(uint16_t sample)
{
	struct flow_stats *b = &bank[active];

	b->count += 1u;
	b->sum += sample;
	b->min = sample < b->min ? sample : b->min;
	b->max = sample > b->max ? sample : b->max;
	b->bins[sample >> 12] += 1u;
}

void flow_take(struct flow_stats *out)
{
	uint32_t saved, retired;

	__asm__ __volatile__("mrs %0, BASEPRI" : "=r"(saved));
	if (saved == 0u || saved > TIMER1_LEVEL) {
		__asm__ __volatile__("msr BASEPRI, %0" : : "r"(TIMER1_LEVEL) : "memory");
	}
	retired = active;
	active = retired ^ 1u;
	__asm__ __volatile__("msr BASEPRI, %0" : : "r"(saved) : "memory");

	*out = bank[retired];
	reset_bank(&bank[retired]);
}
