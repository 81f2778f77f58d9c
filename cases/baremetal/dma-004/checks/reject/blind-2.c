/* defect: on an overrun the callback keeps the older held block and drops the one just completed, so the main loop reads a half being overwritten.
 * breaks: "The block just completed is handed over as usual, so at most one block is held at a time and the main loop always gets the newest one."
 * must_fail: scenario_consecutive_losses_newest_wins, scenario_slow_consumer_loses_odd_blocks
 */
/*
 * src/main.c - ping-pong ADC capture consumer for the VX-2 sensor board.
 *
 * The capture engine fills buf[0..15] and buf[16..31] in turn and calls
 * dma_half_isr() / dma_full_isr() when a half is complete. Each callback
 * hands the block just completed over to the main loop. A block that the
 * main loop still holds when the engine starts to overwrite its half is
 * lost: it is counted as an overrun and never printed.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pingpong.h"

#define BUF_SAMPLES (2u * PP_HALF_SAMPLES)

/* Capture buffer, written by the engine behind the compiler's back. */
static volatile uint16_t s_buf[BUF_SAMPLES];

/* Hand-over state shared between the callbacks and the main loop. */
static volatile bool     s_held;        /* a block is held by the main loop */
static volatile uint32_t s_held_block;  /* its number (its half is number % 2) */
static volatile uint32_t s_next_block;  /* number of the next block to complete */
static volatile uint32_t s_overruns;    /* blocks lost since capture_start */

/* Short PRIMASK critical sections (a few instructions, far below 20 us). */
static inline uint32_t irq_save(void)
{
	uint32_t primask;

	__asm volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask) : : "memory");
	return primask;
}

static inline void irq_restore(uint32_t primask)
{
	__asm volatile("msr primask, %0" : : "r"(primask) : "memory");
}

/* Called from the engine's interrupt with the half that was just finished. */
static void hand_over(uint32_t half)
{
	uint32_t k = s_next_block;

	(void)half; /* always k % 2 */
	s_next_block = k + 1u;

	/*
	 * The main loop has not finished with the previous block yet: the
	 * block just completed cannot be handed over and is lost.
	 */
	if (s_held) {
		s_overruns = s_overruns + 1u;
		return;
	}

	s_held_block = k;
	s_held = true;
}

void dma_half_isr(void)
{
	hand_over(0u);
}

void dma_full_isr(void)
{
	hand_over(1u);
}

void capture_start(void)
{
	s_held = false;
	s_held_block = 0u;
	s_next_block = 0u;
	s_overruns = 0u;

	dma_start((uint16_t *)s_buf, PP_HALF_SAMPLES);
}

bool capture_process(void)
{
	for (;;) {
		uint32_t primask;
		bool held;
		uint32_t k;

		primask = irq_save();
		held = s_held;
		k = s_held_block;
		irq_restore(primask);

		if (!held) {
			return false;
		}

		/* Read the block in place; the engine is writing the other half. */
		const volatile uint16_t *p = &s_buf[(k % 2u) * PP_HALF_SAMPLES];
		uint32_t min = 0xFFFFu;
		uint32_t max = 0u;
		uint32_t sum = 0u;

		for (uint32_t i = 0u; i < PP_HALF_SAMPLES; i++) {
			uint32_t v = p[i];

			if (v < min) {
				min = v;
			}
			if (v > max) {
				max = v;
			}
			sum += v;
		}

		/*
		 * Still ours? If a callback ran meanwhile, block k was lost (its
		 * half is being overwritten) and a newer block is held instead.
		 * Releasing in the same critical section means no loss can be
		 * counted for a block we go on to print.
		 */
		bool valid;

		primask = irq_save();
		valid = s_held && (s_held_block == k);
		if (valid) {
			s_held = false;
		}
		irq_restore(primask);

		if (valid) {
			/* mean = sum / 16 rounded to nearest, halves up */
			uint32_t mean = (sum + 8u) >> 4;

			printf("block %lu half %lu: min %lu max %lu mean %lu\n",
			       (unsigned long)k, (unsigned long)(k % 2u),
			       (unsigned long)min, (unsigned long)max,
			       (unsigned long)mean);
			return true;
		}
		/* Result discarded; go on with the newest block. */
	}
}

uint32_t capture_overruns(void)
{
	return s_overruns;
}
