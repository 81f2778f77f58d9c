/*
 * TX ring driver, written with free-running 32-bit counters: `produced`
 * and `consumed` only ever grow; their difference is the number of
 * descriptors in use, so full (difference 5) and empty (difference 0) can
 * never be confused. EOR is placed on the last descriptor once, at init,
 * and kept by every later write of ctrl.
 */
#include <stddef.h>
#include <stdint.h>

#include "txring.h"

#define BARRIER() __asm volatile ("dmb sy" : : : "memory")

struct slot {
	uint8_t data[TX_FRAME_MAX];
	uint32_t tag;
};

static tx_desc_t tx_ring[TX_RING_SIZE] __attribute__((aligned(16)));
static struct slot slots[TX_RING_SIZE];
static uint32_t produced;
static uint32_t consumed;

void tx_init(void)
{
	size_t n;

	for (n = 0; n < TX_RING_SIZE; n++) {
		tx_ring[n].ctrl = (n == TX_RING_SIZE - 1u) ? TXD_EOR : 0u;
		tx_ring[n].addr = 0u;
		tx_ring[n].status = 0u;
		tx_ring[n].reserved = 0u;
	}
	produced = consumed = 0u;
	BARRIER();
	txdma_start(tx_ring);
}

uint32_t tx_free(void)
{
	return TX_RING_SIZE - (produced - consumed);
}

int tx_send(const uint8_t *frame, uint32_t len, uint32_t tag)
{
	if (len < 1u || len > TX_FRAME_MAX)
		return TX_EINVAL;
	if (produced - consumed >= TX_RING_SIZE)
		return TX_FULL;

	uint32_t slot_no = produced % TX_RING_SIZE;
	tx_desc_t *desc = tx_ring + slot_no;
	struct slot *s = &slots[slot_no];

	for (uint32_t k = 0; k < len; k++)
		s->data[k] = frame[k];
	s->tag = tag;
	desc->addr = (uint32_t)s->data;

	uint32_t word = (desc->ctrl & TXD_EOR) | len;
	BARRIER();
	desc->ctrl = word | TXD_OWN;
	produced++;
	return TX_OK;
}

uint32_t tx_reclaim(void)
{
	uint32_t count = 0;

	for (; consumed != produced; consumed++, count++) {
		uint32_t slot_no = consumed % TX_RING_SIZE;
		tx_desc_t *desc = &tx_ring[slot_no];
		if (desc->ctrl & TXD_OWN)
			break;
		BARRIER();
		uint32_t st = desc->status;
		tx_complete(slots[slot_no].tag, st);
		if (st != TXS_OK)
			txdma_resume();
	}
	return count;
}
