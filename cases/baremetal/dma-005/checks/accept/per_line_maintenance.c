/*
 * Variant: counts first, then fills the chain; cache maintenance one line
 * per call; the pool uses C11 _Alignas.
 */
#include <stdint.h>
#include "sgdma.h"

static _Alignas(16) sg_desc_t chain[SG_MAX_DESC];

enum maint { CLEAN, INVAL };

static void each_line(enum maint op, uintptr_t p, uint32_t n)
{
	uintptr_t line = p - (p % DCACHE_LINE);
	uintptr_t stop = p + n;

	for (; line < stop; line += DCACHE_LINE) {
		if (op == CLEAN) {
			dcache_clean((uint32_t)line, DCACHE_LINE);
		} else {
			dcache_invalidate((uint32_t)line, DCACHE_LINE);
		}
	}
}

static unsigned unit_shift(const sg_frag_t *f)
{
	uint32_t a = (uint32_t)(uintptr_t)f->src, b = (uint32_t)(uintptr_t)f->dst;

	if (a % 4u == 0u && b % 4u == 0u && f->len % 4u == 0u) {
		return 2u;
	}
	if (a % 2u == 0u && b % 2u == 0u && f->len % 2u == 0u) {
		return 1u;
	}
	return 0u;
}

int sg_copy(const sg_frag_t *frags, uint32_t nfrags)
{
	uint32_t total = 0;

	if (nfrags == 0u) {
		return -1;
	}
	for (uint32_t i = 0; i < nfrags; i++) {
		if (frags[i].len == 0u) {
			return -1;
		}
		uint32_t units = frags[i].len >> unit_shift(&frags[i]);
		total += units / SG_COUNT_MAX + (units % SG_COUNT_MAX != 0u);
		if (total > SG_MAX_DESC) {
			return -1;
		}
	}

	uint32_t k = 0;
	for (uint32_t i = 0; i < nfrags; i++) {
		unsigned sh = unit_shift(&frags[i]);
		uint32_t left = frags[i].len >> sh;
		uint32_t off = 0;

		while (left != 0u) {
			uint32_t cnt = left < SG_COUNT_MAX ? left : SG_COUNT_MAX;

			chain[k].src = (uint32_t)(uintptr_t)frags[i].src + off;
			chain[k].dst = (uint32_t)(uintptr_t)frags[i].dst + off;
			chain[k].ctrl = cnt | ((uint32_t)sh << SG_CTRL_WIDTH_SHIFT)
					| SG_CTRL_SRC_INC | SG_CTRL_DST_INC
					| (k + 1u == total ? SG_CTRL_LAST : 0u);
			chain[k].next = (k + 1u < total) ? (uint32_t)(uintptr_t)&chain[k + 1u] : 0u;
			off += cnt << sh;
			left -= cnt;
			k++;
		}
	}

	each_line(CLEAN, (uintptr_t)chain, total * sizeof chain[0]);
	for (uint32_t i = 0; i < nfrags; i++) {
		each_line(CLEAN, (uintptr_t)frags[i].src, frags[i].len);
	}
	for (uint32_t i = 0; i < nfrags; i++) {
		each_line(INVAL, (uintptr_t)frags[i].dst, frags[i].len);
	}
	sgdma_start(chain);
	do {
	} while (sgdma_busy() != 0);
	for (uint32_t i = 0; i < nfrags; i++) {
		each_line(INVAL, (uintptr_t)frags[i].dst, frags[i].len);
	}
	return (int)total;
}
