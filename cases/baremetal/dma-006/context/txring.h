/*
 * txring.h - transmit descriptor ring of the LX-3 link controller.
 *
 * The TX DMA engine, txdma_start(), txdma_resume() and tx_complete() are
 * provided; the four functions in the last part are yours.
 */
#ifndef TXRING_H
#define TXRING_H

#include <stdint.h>

/* ---- Descriptor format (read and written by the engine in memory) ------ */

typedef struct tx_desc {
	volatile uint32_t ctrl;     /* TXD_OWN | TXD_EOR | frame length (TXD_LEN_MASK) */
	volatile uint32_t addr;     /* address of the frame's first byte */
	volatile uint32_t status;   /* written by the engine before it clears OWN */
	volatile uint32_t reserved; /* not used, keep 0 */
} tx_desc_t;

#define TXD_OWN       (1u << 31)  /* 1: the engine owns the descriptor */
#define TXD_EOR       (1u << 30)  /* end of ring: after this one, go back to ring[0] */
#define TXD_LEN_MASK  0x7FFu      /* bits [10:0]: frame length in bytes */

#define TXS_OK        0u          /* status: frame sent; any other value is an error */

#define TX_RING_SIZE  5u          /* descriptors in the ring */
#define TX_FRAME_MAX  128u        /* longest frame, in bytes */
#define TX_DESC_ALIGN 16u         /* the ring starts on a 16-byte boundary */

/* tx_send() results */
#define TX_OK         0
#define TX_FULL       (-1)
#define TX_EINVAL     (-2)

/* ---- Provided ------------------------------------------------------------ */

/* Start the engine on the ring `ring` (TX_RING_SIZE descriptors, aligned
 * to TX_DESC_ALIGN). It begins with ring[0]. Call it once. */
void txdma_start(tx_desc_t *ring);

/* Leave the halted state the engine enters after writing an error status;
 * it goes on with the descriptor after the failed one. Calling it while
 * the engine is not halted is a fault. */
void txdma_resume(void);

/* Report one finished frame to the network stack: the tag given to
 * tx_send() and the status the engine wrote. Thread mode only. */
void tx_complete(uint32_t tag, uint32_t status);

/* ---- Yours --------------------------------------------------------------- */

/* Prepare the ring and start the engine with txdma_start(). Called once,
 * before any other function of this file. */
void tx_init(void);

/* Queue one frame of len bytes; tag identifies it in tx_complete().
 * Returns TX_OK, TX_FULL or TX_EINVAL. Never waits. */
int tx_send(const uint8_t *frame, uint32_t len, uint32_t tag);

/* Reclaim the descriptors the engine has finished, oldest first, and
 * report each with tx_complete(). Returns how many were reclaimed. */
uint32_t tx_reclaim(void);

/* How many more frames tx_send() can accept right now. */
uint32_t tx_free(void);

#endif /* TXRING_H */
