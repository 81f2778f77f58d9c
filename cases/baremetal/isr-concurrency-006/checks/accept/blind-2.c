#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "flowstats.h"

/*
 * Double buffering: the interrupt always accumulates into *acc. flow_take
 * swaps acc to the other (already emptied) buffer inside a very short
 * BASEPRI-protected section, then copies and empties the retired buffer
 * with nothing masked, since the interrupt no longer writes to it.
 */

static struct flow_stats bufs[2];
static struct flow_stats *volatile acc;

static const struct flow_stats empty_stats = {
	.count = 0, .sum = 0, .min = 0xFFFF, .max = 0, .bins = { 0 },
};

void flow_init(void)
{
	volatile uint8_t *ipr = (volatile uint8_t *)0xE000E400;

	ipr[8] = 0x40;      /* timer0: commutation, most urgent */
	ipr[9] = 0x80;      /* timer1: flow samples */

	bufs[0] = empty_stats;
	bufs[1] = empty_stats;
	acc = &bufs[0];
	__asm volatile ("dsb" ::: "memory");
}

void flow_sample_isr(uint16_t sample)
{
	struct flow_stats *s = acc;

	s->count += 1u;
	s->sum += (uint32_t)sample;
	if (sample < s->min)
		s->min = sample;
	if (sample > s->max)
		s->max = sample;
	s->bins[sample >> 12] += 1u;
}

void flow_take(struct flow_stats *out)
{
	uint32_t old_basepri;
	uint32_t mask = 0x80;   /* timer1's priority: masks timer1, not timer0 */
	struct flow_stats *retired;

	__asm volatile ("mrs %0, basepri" : "=r" (old_basepri));
	__asm volatile ("msr basepri_max, %0" :: "r" (mask) : "memory");

	retired = acc;
	acc = (retired == &bufs[0]) ? &bufs[1] : &bufs[0];

	__asm volatile ("msr basepri, %0" :: "r" (old_basepri) : "memory");

	/* The interrupt now writes only to the other buffer. */
	memcpy(out, retired, sizeof(*out));
	*retired = empty_stats;
}
