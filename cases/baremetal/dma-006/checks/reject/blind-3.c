/* defect: tx_reclaim() loads status before it checks OWN, so if the engine
 * finishes in between it reports a stale status (an error frame seen as OK, no resume).
 * breaks: "For each one with OWN clear, it reads `status` (only after it has seen OWN clear), calls `tx_complete(tag, status)` with the tag that frame was queued with, and frees the descriptor."
 * must_fail: scenario_reclaim_race_sweep
 */
/*
 * LX-3 transmit driver: descriptor ring shared with the TX DMA engine.
 *
 * Book-keeping uses two free-running sequence numbers:
 *   prod - frames accepted by tx_send() so far
 *   cons - frames reclaimed by tx_reclaim() so far
 * prod - cons is the number of descriptors in use (0..TX_RING_SIZE),
 * and seq % TX_RING_SIZE is the descriptor a given frame lives in.
 */
#include <stddef.h>
#include <stdint.h>
#include "txring.h"

#define DMB()  __asm__ volatile ("dmb" ::: "memory")

struct tx_slot {
	uint8_t  data[TX_FRAME_MAX];
	uint32_t tag;
};

static struct {
	_Alignas(TX_DESC_ALIGN) tx_desc_t desc[TX_RING_SIZE];
	struct tx_slot slot[TX_RING_SIZE];
	uint32_t prod;
	uint32_t cons;
} drv;

void tx_init(void)
{
	size_t n;

	for (n = 0; n < TX_RING_SIZE; n++) {
		drv.desc[n].ctrl = 0;
		drv.desc[n].addr = 0;
		drv.desc[n].status = 0;
		drv.desc[n].reserved = 0;
	}
	drv.prod = 0;
	drv.cons = 0;

	DMB();
	txdma_start(drv.desc);
}

uint32_t tx_free(void)
{
	return TX_RING_SIZE - (drv.prod - drv.cons);
}

int tx_send(const uint8_t *frame, uint32_t len, uint32_t tag)
{
	if (len < 1u || len > TX_FRAME_MAX)
		return TX_EINVAL;
	if (drv.prod - drv.cons >= TX_RING_SIZE)
		return TX_FULL;

	uint32_t idx = drv.prod % TX_RING_SIZE;
	struct tx_slot *s = &drv.slot[idx];
	tx_desc_t *d = &drv.desc[idx];

	for (uint32_t k = 0; k < len; k++)
		s->data[k] = frame[k];
	s->tag = tag;

	d->addr = (uint32_t)(uintptr_t)s->data;
	d->status = 0;

	/* everything above must be observable before the engine sees OWN */
	DMB();
	d->ctrl = TXD_OWN
	        | ((idx == TX_RING_SIZE - 1u) ? TXD_EOR : 0u)
	        | len;

	drv.prod++;
	return TX_OK;
}

uint32_t tx_reclaim(void)
{
	uint32_t count = 0;

	for (;;) {
		if (drv.prod == drv.cons)
			break;

		uint32_t idx = drv.cons % TX_RING_SIZE;
		tx_desc_t *d = &drv.desc[idx];
		uint32_t st = d->status;
		uint32_t tag = drv.slot[idx].tag;

		DMB();
		if ((d->ctrl & TXD_OWN) != 0u)
			break;

		drv.cons++;
		count++;

		if (st != TXS_OK) {
			/* dropped; report it and let the engine go on */
			tx_complete(tag, st);
			txdma_resume();
		} else {
			tx_complete(tag, st);
		}
	}
	return count;
}
