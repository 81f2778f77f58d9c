/*
 * pingpong.h - ping-pong ADC capture on the VX-2 sensor board.
 *
 * The capture engine (a DMA channel fed by the ADC) is provided; the
 * functions in the second part are yours.
 */
#ifndef PINGPONG_H
#define PINGPONG_H

#include <stdbool.h>
#include <stdint.h>

/* Samples in one half of the capture buffer (one block). */
#define PP_HALF_SAMPLES 16u

/* ---- Provided by the capture engine ---------------------------------- */

/*
 * Start continuous capture into buf[0 .. 2*half_len-1] (half_len must be
 * PP_HALF_SAMPLES). The engine writes one 12-bit sample (0..4095) every
 * 50 us at increasing indexes, first half buf[0..15], then second half
 * buf[16..31], then the first half again, and so on without end. When it
 * has written the last sample of a half it calls that half's callback
 * (below) from its interrupt handler and goes on at once with the other
 * half. Call it once, from thread mode.
 */
void dma_start(uint16_t *buf, uint32_t half_len);

/* ---- Implemented by you ------------------------------------------------ */

/* Called once by the application before anything else: start the capture
 * with dma_start() on a buffer of 2 * PP_HALF_SAMPLES samples you own. */
void capture_start(void);

/* Called by the engine in interrupt context when buf[0..15] is complete. */
void dma_half_isr(void);

/* Called by the engine in interrupt context when buf[16..31] is complete. */
void dma_full_isr(void);

/* Called by the application's main loop, in thread mode. If a block is
 * waiting, process it, print its line, release it and return true.
 * Otherwise return false at once. */
bool capture_process(void);

/* The number of blocks lost to overruns since capture_start. */
uint32_t capture_overruns(void);

#endif /* PINGPONG_H */
