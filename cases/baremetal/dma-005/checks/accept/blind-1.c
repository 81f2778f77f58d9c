/*
 * src/main.c - scatter-gather DMA copies on the RX-7 controller.
 */
#include <stdint.h>

#include "sgdma.h"

/* Descriptor storage: one chain at a time, each entry 16-byte aligned
 * (sizeof(sg_desc_t) == 16, so aligning the array aligns every entry). */
static sg_desc_t sg_chain[SG_MAX_DESC] __attribute__((aligned(SG_DESC_ALIGN)));

/* Unit size in bytes of a fragment: widest of 4, 2, 1 dividing src, dst, len. */
static uint32_t frag_unit(const sg_frag_t *f)
{
	uint32_t bits = (uint32_t)f->src | (uint32_t)f->dst | f->len;

	if ((bits & 3u) == 0u) {
		return 4u;
	}
	if ((bits & 1u) == 0u) {
		return 2u;
	}
	return 1u;
}

static uint32_t width_code(uint32_t unit)
{
	return (unit == 4u) ? SG_WIDTH_4 : (unit == 2u) ? SG_WIDTH_2 : SG_WIDTH_1;
}

/* Number of descriptors a fragment needs. */
static uint32_t frag_descs(const sg_frag_t *f)
{
	uint32_t units = f->len / frag_unit(f);

	return (units + SG_COUNT_MAX - 1u) / SG_COUNT_MAX;
}

/* Whole-line cache maintenance of [addr, addr + len). */
static void range_lines(uint32_t addr, uint32_t len, uint32_t *start, uint32_t *size)
{
	uint32_t first = addr & ~(DCACHE_LINE - 1u);
	uint32_t end = (addr + len + DCACHE_LINE - 1u) & ~(DCACHE_LINE - 1u);

	*start = first;
	*size = end - first;
}

static void clean_range(uint32_t addr, uint32_t len)
{
	uint32_t start, size;

	range_lines(addr, len, &start, &size);
	dcache_clean(start, size);
}

static void invalidate_range(uint32_t addr, uint32_t len)
{
	uint32_t start, size;

	range_lines(addr, len, &start, &size);
	dcache_invalidate(start, size);
}

int sg_copy(const sg_frag_t *frags, uint32_t nfrags)
{
	uint32_t total = 0u;
	uint32_t i;

	/* 1. Validate the whole list before touching anything. */
	if (frags == 0 || nfrags == 0u) {
		return -1;
	}
	for (i = 0u; i < nfrags; i++) {
		if (frags[i].len == 0u) {
			return -1;
		}
	}
	for (i = 0u; i < nfrags; i++) {
		total += frag_descs(&frags[i]);
		if (total > SG_MAX_DESC) {
			return -1;
		}
	}

	/* 2. Build the chain. */
	uint32_t n = 0u;

	for (i = 0u; i < nfrags; i++) {
		const sg_frag_t *f = &frags[i];
		uint32_t unit = frag_unit(f);
		uint32_t left = f->len / unit;
		uint32_t src = (uint32_t)f->src;
		uint32_t dst = (uint32_t)f->dst;

		while (left > 0u) {
			uint32_t count = (left > SG_COUNT_MAX) ? SG_COUNT_MAX : left;
			sg_desc_t *d = &sg_chain[n];

			d->src = src;
			d->dst = dst;
			d->ctrl = count
				| (width_code(unit) << SG_CTRL_WIDTH_SHIFT)
				| SG_CTRL_SRC_INC | SG_CTRL_DST_INC;
			d->next = (uint32_t)&sg_chain[n + 1u];

			src += count * unit;
			dst += count * unit;
			left -= count;
			n++;
		}
	}
	sg_chain[n - 1u].ctrl |= SG_CTRL_LAST;
	sg_chain[n - 1u].next = 0u;

	/* Descriptor stores must be done before they are cleaned. */
	__asm volatile("dsb" ::: "memory");

	/* 3. Cache maintenance before the engine runs. */
	clean_range((uint32_t)&sg_chain[0], n * (uint32_t)sizeof(sg_desc_t));
	for (i = 0u; i < nfrags; i++) {
		clean_range((uint32_t)frags[i].src, frags[i].len);
	}
	for (i = 0u; i < nfrags; i++) {
		invalidate_range((uint32_t)frags[i].dst, frags[i].len);
	}

	/* 4. Run and wait. */
	sgdma_start(&sg_chain[0]);
	while (sgdma_busy()) {
		/* poll */
	}

	/* 5. Drop whatever the CPU fetched into the destination lines meanwhile. */
	for (i = 0u; i < nfrags; i++) {
		invalidate_range((uint32_t)frags[i].dst, frags[i].len);
	}

	return (int)n;
}
