#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pingpong.h"

/*
 * Ping-pong capture consumer.
 *
 * The mailbox holds at most one block: the newest one the engine has
 * completed and the main loop has not released yet. Every hand-over bumps
 * `epoch`; if it changes while capture_process() reads a block, that block
 * was replaced (and therefore lost) under its feet.
 */

enum { NO_BLOCK = -1 };

struct capture_state {
	volatile int32_t  mailbox;  /* held block number, or NO_BLOCK */
	volatile uint32_t epoch;    /* hand-overs so far */
	volatile uint32_t lost;     /* overruns so far */
	uint32_t          next;     /* next block number (callbacks only) */
};

static uint16_t capture_buf[2 * PP_HALF_SAMPLES];
static struct capture_state st;

static void irq_off(void) { __asm volatile("cpsid i" ::: "memory"); }
static void irq_on(void)  { __asm volatile("cpsie i" ::: "memory"); }

void capture_start(void)
{
	st.mailbox = NO_BLOCK;
	st.epoch = 0;
	st.lost = 0;
	st.next = 0;
	dma_start(capture_buf, PP_HALF_SAMPLES);
}

/* Both callbacks do the same: the half is implied by the block number. */
static void block_done(void)
{
	if (st.mailbox != NO_BLOCK)
		st.lost++;          /* its half is being overwritten now */
	st.mailbox = (int32_t)st.next++;
	st.epoch++;
}

void dma_half_isr(void) { block_done(); }
void dma_full_isr(void) { block_done(); }

struct stats {
	uint16_t min, max, mean;
};

static struct stats block_stats(const volatile uint16_t *s)
{
	struct stats r = { 4095, 0, 0 };
	uint32_t sum = 0;
	int i;

	for (i = 0; i < (int)PP_HALF_SAMPLES; i++) {
		uint16_t v = s[i];
		if (v < r.min) r.min = v;
		if (v > r.max) r.max = v;
		sum += v;
	}
	/* round half up: (sum + 16/2) / 16 */
	r.mean = (uint16_t)((sum + PP_HALF_SAMPLES / 2) / PP_HALF_SAMPLES);
	return r;
}

bool capture_process(void)
{
	int32_t blk;
	uint32_t ep;
	struct stats r;
	bool ours;

retry:
	irq_off();
	blk = st.mailbox;
	ep = st.epoch;
	irq_on();
	if (blk == NO_BLOCK)
		return false;

	r = block_stats((const volatile uint16_t *)&capture_buf[(blk & 1) * PP_HALF_SAMPLES]);

	irq_off();
	ours = (st.epoch == ep);
	if (ours)
		st.mailbox = NO_BLOCK;   /* release */
	irq_on();

	if (!ours)
		goto retry;              /* lost while reading: drop the result */

	printf("block %ld half %ld: min %u max %u mean %u\n",
	       (long)blk, (long)(blk & 1), r.min, r.max, r.mean);
	return true;
}

uint32_t capture_overruns(void)
{
	return st.lost;
}
