/* defect: classic head/tail ring with one slot kept empty to tell full from
 * empty, so only TX_RING_SIZE - 1 frames can be queued and tx_free() is one low.
 * breaks: "All `TX_RING_SIZE` descriptors can hold frames at the same time."
 * must_fail: scenario_sixth_frame_full
 */
/*
 * main.c - LX-3 link controller, transmit path of the network driver.
 *
 * A ring of TX_RING_SIZE descriptors is shared with the TX DMA engine.
 * Each descriptor owns one frame buffer of this file.  The driver keeps
 * two indices: `head` (next descriptor tx_send() fills) and `tail`
 * (oldest descriptor still in use); head == tail means the ring is empty.
 */
#include <stdint.h>
#include <string.h>
#include "txring.h"

static inline void dmb(void)
{
	__asm__ volatile ("dmb" ::: "memory");
}

/* Descriptor ring, shared with the engine. */
static tx_desc_t tx_ring[TX_RING_SIZE] __attribute__((aligned(TX_DESC_ALIGN)));

/* One private frame buffer per descriptor. */
static uint8_t tx_buf[TX_RING_SIZE][TX_FRAME_MAX] __attribute__((aligned(4)));

/* Tag of the frame queued in each descriptor. */
static uint32_t tx_tag[TX_RING_SIZE];

static uint32_t tx_head;   /* next descriptor to fill */
static uint32_t tx_tail;   /* oldest descriptor in use */

static uint32_t ring_next(uint32_t i)
{
	return (i + 1u == TX_RING_SIZE) ? 0u : i + 1u;
}

void tx_init(void)
{
	uint32_t i;

	for (i = 0; i < TX_RING_SIZE; i++) {
		tx_ring[i].ctrl = 0u;          /* OWN clear */
		tx_ring[i].addr = 0u;
		tx_ring[i].status = 0u;
		tx_ring[i].reserved = 0u;
		tx_tag[i] = 0u;
	}
	tx_head = 0u;
	tx_tail = 0u;

	/* Descriptors must be visible before the engine starts reading them. */
	dmb();
	txdma_start(tx_ring);
}

int tx_send(const uint8_t *frame, uint32_t len, uint32_t tag)
{
	uint32_t i;
	uint32_t ctrl;
	tx_desc_t *d;

	if (len == 0u || len > TX_FRAME_MAX)
		return TX_EINVAL;
	if (ring_next(tx_head) == tx_tail)
		return TX_FULL;

	i = tx_head;
	d = &tx_ring[i];

	/* Prepare everything the engine will read once OWN is set. */
	memcpy(tx_buf[i], frame, len);
	tx_tag[i] = tag;
	d->addr = (uint32_t)(uintptr_t)tx_buf[i];

	ctrl = TXD_OWN | (len & TXD_LEN_MASK);
	if (i == TX_RING_SIZE - 1u)
		ctrl |= TXD_EOR;

	/* Frame bytes and addr must reach memory before OWN does. */
	dmb();
	d->ctrl = ctrl;                         /* hand-off: last store */

	tx_head = ring_next(i);
	return TX_OK;
}

uint32_t tx_reclaim(void)
{
	uint32_t done = 0u;

	while (tx_tail != tx_head) {
		uint32_t i = tx_tail;
		tx_desc_t *d = &tx_ring[i];
		uint32_t status;
		uint32_t tag;

		if (d->ctrl & TXD_OWN)
			break;                  /* engine still has it */

		/* Only read status after OWN was seen clear. */
		dmb();
		status = d->status;
		tag = tx_tag[i];

		tx_tail = ring_next(i);
		done++;

		tx_complete(tag, status);

		if (status != TXS_OK)
			txdma_resume();         /* engine halted on this frame */
	}
	return done;
}

uint32_t tx_free(void)
{
	return (tx_tail + TX_RING_SIZE - tx_head - 1u) % TX_RING_SIZE;
}
