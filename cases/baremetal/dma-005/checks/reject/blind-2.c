/* defect: the maintained length is len rounded up from the rounded-down start, so the last line is missed when the range starts mid-line.
 * breaks: "Every range is maintained by whole lines: from its start address rounded down to a multiple of 32 to its end address (start + length) rounded up to a multiple of 32, so that every line holding a byte of the range is covered."
 * must_fail: scenario_partial_lines_rounded_out
 */
#include <stddef.h>
#include <stdint.h>

#include "sgdma.h"

#define LINE_MASK   ((uint32_t)DCACHE_LINE - 1u)
#define ADDR(p)     ((uint32_t)(p))

/*
 * Chain storage. Aligned to a whole cache line (32 is a multiple of the
 * required 16); every 16-byte descriptor therefore starts on a 16-byte
 * boundary.
 */
static _Alignas(DCACHE_LINE) sg_desc_t chain[SG_MAX_DESC];

enum cache_op { CLEAN, INVALIDATE };

/* Maintain every line holding a byte of [addr, addr+len). */
static void cache_range(enum cache_op op, uint32_t addr, uint32_t len)
{
	uint64_t lo = addr & ~LINE_MASK;
	uint64_t hi = lo + (((uint64_t)len + LINE_MASK) & ~(uint64_t)LINE_MASK);

	if (op == CLEAN)
		dcache_clean((uint32_t)lo, (uint32_t)(hi - lo));
	else
		dcache_invalidate((uint32_t)lo, (uint32_t)(hi - lo));
}

int sg_copy(const sg_frag_t *frags, uint32_t nfrags)
{
	uint32_t used = 0;

	if (nfrags == 0)
		return -1;

	/*
	 * Build the chain in our private storage; nothing outside this file
	 * is touched until the list is known to be acceptable.
	 */
	for (uint32_t i = 0; i < nfrags; i++) {
		uint32_t s = ADDR(frags[i].src);
		uint32_t d = ADDR(frags[i].dst);
		uint32_t len = frags[i].len;
		uint32_t width, shift;

		if (len == 0)
			return -1;

		if (((s | d | len) % 4) == 0) {
			width = SG_WIDTH_4;
			shift = 2;
		} else if (((s | d | len) % 2) == 0) {
			width = SG_WIDTH_2;
			shift = 1;
		} else {
			width = SG_WIDTH_1;
			shift = 0;
		}

		uint32_t units = len >> shift;
		do {
			uint32_t cnt = units < SG_COUNT_MAX ? units : SG_COUNT_MAX;

			if (used == SG_MAX_DESC)
				return -1;   /* chain would need more than 16 */

			chain[used].src = s;
			chain[used].dst = d;
			chain[used].ctrl = (cnt & SG_CTRL_COUNT_MASK) |
					   (width << SG_CTRL_WIDTH_SHIFT) |
					   SG_CTRL_SRC_INC | SG_CTRL_DST_INC;
			chain[used].next = ADDR(&chain[used + 1]);
			used++;

			s += cnt << shift;
			d += cnt << shift;
			units -= cnt;
		} while (units != 0);
	}

	chain[used - 1].ctrl |= SG_CTRL_LAST;
	chain[used - 1].next = 0;

	/* Descriptors, then sources out to memory; destinations out of the cache. */
	cache_range(CLEAN, ADDR(chain), used * sizeof(sg_desc_t));
	for (uint32_t i = 0; i < nfrags; i++) {
		cache_range(CLEAN, ADDR(frags[i].src), frags[i].len);
		cache_range(INVALIDATE, ADDR(frags[i].dst), frags[i].len);
	}

	sgdma_start(chain);
	while (sgdma_busy() != 0)
		;

	/* Lines fetched speculatively during the transfer hold stale data. */
	for (uint32_t i = 0; i < nfrags; i++)
		cache_range(INVALIDATE, ADDR(frags[i].dst), frags[i].len);

	return (int)used;
}
