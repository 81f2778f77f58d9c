/*
 * Scatter-gather copy for the RX-7 controller (sgdma.h).
 *
 * sg_copy() validates the whole list first (so a rejected list touches
 * neither the cache nor the engine), builds one chain in a 16-byte aligned
 * pool, writes the chain and the sources back from the data cache,
 * discards the destination lines, runs the engine to completion and
 * discards the destination lines again before the caller reads them.
 */
#include <stddef.h>
#include <stdint.h>
#include "sgdma.h"

static sg_desc_t desc_pool[SG_MAX_DESC] __attribute__((aligned(SG_DESC_ALIGN)));

/* Widest unit dividing the source address, destination address and length. */
static uint32_t frag_width(uint32_t src, uint32_t dst, uint32_t len)
{
	uint32_t bits = src | dst | len;

	if ((bits & 3u) == 0u) {
		return SG_WIDTH_4;
	}
	if ((bits & 1u) == 0u) {
		return SG_WIDTH_2;
	}
	return SG_WIDTH_1;
}

static uint32_t frag_descs(const sg_frag_t *f)
{
	uint32_t w = frag_width((uint32_t)f->src, (uint32_t)f->dst, f->len);
	uint32_t units = f->len >> w;

	return (units + SG_COUNT_MAX - 1u) / SG_COUNT_MAX;
}

/* Every cache line holding a byte of [addr, addr + len). */
static void line_span(uint32_t addr, uint32_t len, uint32_t *start, uint32_t *size)
{
	uint32_t first = addr & ~(DCACHE_LINE - 1u);
	uint32_t end = (addr + len + DCACHE_LINE - 1u) & ~(DCACHE_LINE - 1u);

	*start = first;
	*size = end - first;
}

static void clean_range(const void *p, uint32_t len)
{
	uint32_t a, n;

	line_span((uint32_t)p, len, &a, &n);
	dcache_clean(a, n);
}

static void invalidate_range(const void *p, uint32_t len)
{
	uint32_t a, n;

	line_span((uint32_t)p, len, &a, &n);
	dcache_invalidate(a, n);
}

int sg_copy(const sg_frag_t *frags, uint32_t nfrags)
{
	if (frags == NULL || nfrags == 0u) {
		return -1;
	}
	uint32_t needed = 0u;
	for (uint32_t i = 0; i < nfrags; i++) {
		if (frags[i].len == 0u) {
			return -1;
		}
		needed += frag_descs(&frags[i]);
		if (needed > SG_MAX_DESC) {
			return -1;
		}
	}

	uint32_t used = 0u;
	for (uint32_t i = 0; i < nfrags; i++) {
		uint32_t src = (uint32_t)frags[i].src;
		uint32_t dst = (uint32_t)frags[i].dst;
		uint32_t w = frag_width(src, dst, frags[i].len);
		uint32_t units = frags[i].len >> w;

		while (units > 0u) {
			uint32_t n = units > SG_COUNT_MAX ? SG_COUNT_MAX : units;
			sg_desc_t *d = &desc_pool[used++];

			d->src = src;
			d->dst = dst;
			d->ctrl = n | (w << SG_CTRL_WIDTH_SHIFT) | SG_CTRL_SRC_INC | SG_CTRL_DST_INC;
			d->next = (uint32_t)&desc_pool[used];
			src += n << w;
			dst += n << w;
			units -= n;
		}
	}
	desc_pool[used - 1u].ctrl |= SG_CTRL_LAST;
	desc_pool[used - 1u].next = 0u;

	/* Make the chain and the sources visible to the engine; drop dirty
	 * destination lines so that no eviction lands on the engine's data. */
	clean_range(desc_pool, used * (uint32_t)sizeof(sg_desc_t));
	for (uint32_t i = 0; i < nfrags; i++) {
		clean_range(frags[i].src, frags[i].len);
		invalidate_range(frags[i].dst, frags[i].len);
	}

	sgdma_start(&desc_pool[0]);
	while (sgdma_busy()) {
	}

	/* Lines refetched while the engine ran hold old data: drop them. */
	for (uint32_t i = 0; i < nfrags; i++) {
		invalidate_range(frags[i].dst, frags[i].len);
	}
	return (int)used;
}
