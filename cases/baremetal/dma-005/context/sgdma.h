/*
 * sgdma.h - scatter-gather DMA copies on the RX-7 controller.
 *
 * The DMA engine and the data cache maintenance functions are provided;
 * sg_copy() is yours.
 */
#ifndef SGDMA_H
#define SGDMA_H

#include <stdint.h>

/* ---- Descriptor format (read by the DMA engine from memory) ------------ */

typedef struct sg_desc {
	uint32_t src;   /* address of the first source unit */
	uint32_t dst;   /* address of the first destination unit */
	uint32_t ctrl;  /* SG_CTRL_* fields below */
	uint32_t next;  /* address of the next descriptor (ignored with LAST) */
} sg_desc_t;

#define SG_CTRL_COUNT_MASK  0x00000FFFu  /* bits [11:0]: units to move, 1..4095 */
#define SG_CTRL_WIDTH_SHIFT 12u          /* bits [13:12]: unit size */
#define SG_WIDTH_1          0u           /*   1 byte  */
#define SG_WIDTH_2          1u           /*   2 bytes */
#define SG_WIDTH_4          2u           /*   4 bytes */
#define SG_CTRL_SRC_INC     (1u << 14)   /* source address advances by the unit size */
#define SG_CTRL_DST_INC     (1u << 15)   /* destination address advances by the unit size */
#define SG_CTRL_LAST        (1u << 31)   /* last descriptor of the chain */

#define SG_COUNT_MAX        4095u
#define SG_DESC_ALIGN       16u          /* every descriptor starts on a 16-byte boundary */
#define SG_MAX_DESC         16u          /* descriptors one sg_copy() may use */
#define DCACHE_LINE         32u

/* One piece of a copy: len bytes from src to dst. */
typedef struct sg_frag {
	const void *src;
	void *dst;
	uint32_t len;
} sg_frag_t;

/* ---- Provided ------------------------------------------------------------ */

/* Start the engine on the chain whose first descriptor is at `first`. */
void sgdma_start(const sg_desc_t *first);

/* Nonzero while the engine is working on the chain it was started on. */
int sgdma_busy(void);

/* Data cache maintenance by address range. addr must be a multiple of
 * DCACHE_LINE and len a non-zero multiple of DCACHE_LINE; any other call
 * is a fault and does nothing.
 * dcache_clean: write the dirty lines of the range back to memory (they
 *   stay in the cache).
 * dcache_invalidate: discard the lines of the range from the cache
 *   (dirty data in them is lost). */
void dcache_clean(uint32_t addr, uint32_t len);
void dcache_invalidate(uint32_t addr, uint32_t len);

/* ---- Yours --------------------------------------------------------------- */

/* Copy every fragment with one descriptor chain and return the number of
 * descriptors used, or -1 (nothing done) for a list it must reject. */
int sg_copy(const sg_frag_t *frags, uint32_t nfrags);

#endif /* SGDMA_H */
