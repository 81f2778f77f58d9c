/*
 * Ping-pong capture consumer for the VX-2 sensor board (pingpong.h).
 *
 * One slot describes the block the main loop holds: the half it lies in and
 * its block number. The engine's callbacks fill the slot; when they find it
 * still holding the other half (the one the engine is about to overwrite),
 * that block is lost and counted. capture_process() copies the slot under
 * PRIMASK, computes the statistics from the buffer, and releases the slot
 * only if it still describes the same block; otherwise the block was lost
 * while being read and its result is dropped.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "pingpong.h"

#define NO_BLOCK (-1)

static uint16_t capture_buf[2u * PP_HALF_SAMPLES];

static volatile int32_t held_half = NO_BLOCK;   /* half the main loop holds */
static volatile uint32_t held_seq;              /* its block number */
static volatile uint32_t blocks_done;           /* blocks completed so far */
static volatile uint32_t lost_blocks;

static inline uint32_t irq_save(void)
{
	uint32_t primask;

	__asm__ volatile("mrs %0, primask" : "=r"(primask));
	__asm__ volatile("cpsid i" : : : "memory");
	return primask;
}

static inline void irq_restore(uint32_t primask)
{
	__asm__ volatile("msr primask, %0" : : "r"(primask) : "memory");
}

static void block_complete(int32_t half)
{
	uint32_t seq = blocks_done;

	blocks_done = seq + 1u;
	if (held_half == 1 - half) {
		/* The engine is now overwriting the half main still holds. */
		lost_blocks = lost_blocks + 1u;
	}
	held_seq = seq;
	held_half = half;
}

void dma_half_isr(void)
{
	block_complete(0);
}

void dma_full_isr(void)
{
	block_complete(1);
}

void capture_start(void)
{
	held_half = NO_BLOCK;
	blocks_done = 0u;
	lost_blocks = 0u;
	dma_start(capture_buf, PP_HALF_SAMPLES);
}

bool capture_process(void)
{
	uint32_t key = irq_save();
	int32_t half = held_half;
	uint32_t seq = held_seq;
	irq_restore(key);

	if (half == NO_BLOCK) {
		return false;
	}

	const uint16_t *s = &capture_buf[(uint32_t)half * PP_HALF_SAMPLES];
	uint32_t min = 0xFFFFu, max = 0u, sum = 0u;
	for (uint32_t i = 0; i < PP_HALF_SAMPLES; i++) {
		uint32_t v = s[i];
		if (v < min) {
			min = v;
		}
		if (v > max) {
			max = v;
		}
		sum += v;
	}

	key = irq_save();
	bool intact = (held_half == half) && (held_seq == seq);
	if (intact) {
		held_half = NO_BLOCK;
	}
	irq_restore(key);

	if (intact) {
		printf("block %lu half %ld: min %lu max %lu mean %lu\n",
		       (unsigned long)seq, (long)half, (unsigned long)min,
		       (unsigned long)max,
		       (unsigned long)((sum + PP_HALF_SAMPLES / 2u) / PP_HALF_SAMPLES));
	}
	return true;
}

uint32_t capture_overruns(void)
{
	return lost_blocks;
}
