/* flowstats.h - flow-sensor statistics shared by the timer1 interrupt and
 * the main loop (the interface your file implements). */
#ifndef FLOWSTATS_H
#define FLOWSTATS_H

#include <stdint.h>

#define FLOW_BINS 16u

struct flow_stats {
	uint32_t count;             /* samples accumulated since the last take */
	uint32_t sum;               /* sum of those samples, modulo 2^32 */
	uint16_t min;               /* smallest of them; 0xFFFF when count == 0 */
	uint16_t max;               /* largest of them; 0 when count == 0 */
	uint32_t bins[FLOW_BINS];   /* bins[k]: samples s with (s >> 12) == k */
};

/* Called once by the bench, before any other function of this file and
 * before the timers run: sets the two interrupt priorities and empties the
 * live statistics. */
void flow_init(void);

/* Called by the bench's timer1 interrupt handler (IRQ 9) with each new
 * sample; adds it to the live statistics. */
void flow_sample_isr(uint16_t sample);

/* Called by the main loop: copies the live statistics into *out and empties
 * them, as one indivisible step with respect to flow_sample_isr(). */
void flow_take(struct flow_stats *out);

#endif
