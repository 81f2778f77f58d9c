/*
 * LX-3 link controller: transmit descriptor ring.
 *
 * The ring has TX_RING_SIZE descriptors, each with its own frame buffer.
 * `head` is the next descriptor tx_send() fills, `tail` the oldest one in
 * use, and `used` tells a full ring (head == tail, used == TX_RING_SIZE)
 * from an empty one (head == tail, used == 0). Only thread mode touches
 * these three; the engine only sees the descriptors and the buffers.
 */
#include <stdint.h>
#include <string.h>

#include "txring.h"

static tx_desc_t ring[TX_RING_SIZE] __attribute__((aligned(TX_DESC_ALIGN)));
static uint8_t frame_buf[TX_RING_SIZE][TX_FRAME_MAX] __attribute__((aligned(4)));
static uint32_t frame_tag[TX_RING_SIZE];

static uint32_t head;   /* next descriptor to fill */
static uint32_t tail;   /* oldest descriptor in use */
static uint32_t used;   /* descriptors in use */

static inline void dmb(void)
{
	__asm__ volatile ("dmb" ::: "memory");
}

static uint32_t next_index(uint32_t i)
{
	return i + 1u == TX_RING_SIZE ? 0u : i + 1u;
}

void tx_init(void)
{
	for (uint32_t i = 0; i < TX_RING_SIZE; i++) {
		ring[i].ctrl = 0u;
		ring[i].addr = (uint32_t)(uintptr_t)frame_buf[i];
		ring[i].status = 0u;
		ring[i].reserved = 0u;
	}
	head = 0u;
	tail = 0u;
	used = 0u;
	dmb();
	txdma_start(ring);
}

int tx_send(const uint8_t *frame, uint32_t len, uint32_t tag)
{
	if (len == 0u || len > TX_FRAME_MAX) {
		return TX_EINVAL;
	}
	if (used == TX_RING_SIZE) {
		return TX_FULL;
	}

	uint32_t i = head;
	tx_desc_t *d = &ring[i];
	uint32_t ctrl = TXD_OWN | (len & TXD_LEN_MASK);

	if (i == TX_RING_SIZE - 1u) {
		ctrl |= TXD_EOR;
	}
	memcpy(frame_buf[i], frame, len);
	frame_tag[i] = tag;
	d->addr = (uint32_t)(uintptr_t)frame_buf[i];
	d->status = 0u;

	dmb();              /* buffer and addr visible before the hand-off */
	d->ctrl = ctrl;     /* OWN: the descriptor now belongs to the engine */

	head = next_index(i);
	used++;
	return TX_OK;
}

uint32_t tx_reclaim(void)
{
	uint32_t n = 0u;

	while (used != 0u) {
		tx_desc_t *d = &ring[tail];

		if ((d->ctrl & TXD_OWN) != 0u) {
			break;          /* the engine still owns it */
		}
		dmb();              /* status only after OWN was seen clear */
		uint32_t status = d->status;
		uint32_t tag = frame_tag[tail];

		tail = next_index(tail);
		used--;
		n++;
		tx_complete(tag, status);
		if (status != TXS_OK) {
			txdma_resume();
		}
	}
	return n;
}

uint32_t tx_free(void)
{
	return TX_RING_SIZE - used;
}
