/* defect: flow_take ends its critical section by writing BASEPRI = 0 instead of restoring the value it found, so a caller that had BASEPRI raised to 0x80 gets it cleared.
 * breaks: "`flow_take` may be called with `BASEPRI` already raised by the caller (to `0x80`); it must return with `BASEPRI` exactly as it found it."
 * must_fail: scenario_stress_basepri_restored
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "flowstats.h"

static struct flow_stats stats;

static const struct flow_stats empty_stats = {
	.count = 0, .sum = 0, .min = 0xFFFF, .max = 0, .bins = { 0 },
};

static inline void lock_timer1(void)
{
	uint32_t mask = 0x80;   /* timer1's priority: masks timer1, not timer0 */
	__asm volatile ("msr basepri_max, %0" :: "r" (mask) : "memory");
}

static inline void unlock_timer1(void)
{
	uint32_t zero = 0;
	__asm volatile ("msr basepri, %0" :: "r" (zero) : "memory");
}

void flow_init(void)
{
	volatile uint8_t *ipr = (volatile uint8_t *)0xE000E400;

	ipr[8] = 0x40;      /* timer0: commutation, most urgent */
	ipr[9] = 0x80;      /* timer1: flow samples */

	stats = empty_stats;
}

void flow_sample_isr(uint16_t sample)
{
	stats.count += 1u;
	stats.sum += (uint32_t)sample;
	if (sample < stats.min)
		stats.min = sample;
	if (sample > stats.max)
		stats.max = sample;
	stats.bins[sample >> 12] += 1u;
}

void flow_take(struct flow_stats *out)
{
	lock_timer1();
	memcpy(out, &stats, sizeof(*out));
	stats = empty_stats;
	unlock_timer1();
}
