#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pool.h"

/* Largest block_size pool_init accepts. */
enum { MAX_BLOCK_SIZE = 4096 };

/* ---- interrupt masking ------------------------------------------------ */

typedef uint32_t crit_state_t;

static inline crit_state_t crit_enter(void)
{
	crit_state_t was_masked;

	__asm volatile("mrs %0, PRIMASK" : "=r"(was_masked));
	__asm volatile("cpsid i" : : : "memory");
	return was_masked & 1u;
}

static inline void crit_exit(crit_state_t was_masked)
{
	/* Re-enable only if interrupts were enabled on entry. */
	if (!was_masked)
		__asm volatile("cpsie i" : : : "memory");
	else
		__asm volatile("" : : : "memory");
}

/* ---- helpers ---------------------------------------------------------- */

static void *link_get(const void *block)
{
	void *next;

	memcpy(&next, block, sizeof next);
	return next;
}

static void link_set(void *block, void *next)
{
	memcpy(block, &next, sizeof next);
}

static int bitmap_test(const pool_t *pool, size_t i)
{
	return (pool->allocated[i >> 5] >> (i & 31u)) & 1u;
}

static void bitmap_set(pool_t *pool, size_t i)
{
	pool->allocated[i >> 5] |= (uint32_t)1 << (i & 31u);
}

static void bitmap_clear(pool_t *pool, size_t i)
{
	pool->allocated[i >> 5] &= ~((uint32_t)1 << (i & 31u));
}

/*
 * Index of the block that starts exactly at ptr, or -1 when ptr is not the
 * start of one of the pool's blocks.
 */
static long block_index(const pool_t *pool, const void *ptr)
{
	uintptr_t first = (uintptr_t)pool->base;
	uintptr_t addr = (uintptr_t)ptr;
	uintptr_t off;

	if (addr < first)
		return -1;
	off = addr - first;
	if (off / pool->stride >= pool->count)
		return -1;
	if (off % pool->stride)
		return -1;
	return (long)(off / pool->stride);
}

/* ---- API -------------------------------------------------------------- */

int pool_init(pool_t *pool, void *buf, size_t buf_size, size_t block_size)
{
	size_t misalign, pad, usable, stride, nblocks;
	uint8_t *first;

	if (!pool || !buf || block_size == 0 || block_size > MAX_BLOCK_SIZE)
		return POOL_EINVAL;

	misalign = (uintptr_t)buf % POOL_ALIGN;
	pad = misalign ? POOL_ALIGN - misalign : 0;
	if (buf_size < pad)
		return POOL_EINVAL;
	usable = buf_size - pad;

	stride = ((block_size + POOL_ALIGN - 1) / POOL_ALIGN) * POOL_ALIGN;
	nblocks = usable / stride;
	if (nblocks > POOL_MAX_BLOCKS)
		nblocks = POOL_MAX_BLOCKS;
	if (nblocks < 1)
		return POOL_EINVAL;

	first = (uint8_t *)buf + pad;

	memset(pool, 0, sizeof *pool);
	pool->base = first;
	pool->stride = stride;
	pool->count = nblocks;

	/* Push from the last block down to block 0: block 0 ends up on top. */
	pool->free_head = NULL;
	for (size_t i = nblocks; i-- > 0;) {
		void *blk = first + i * stride;

		link_set(blk, pool->free_head);
		pool->free_head = blk;
	}
	pool->free_count = nblocks;

	return (int)nblocks;
}

void *pool_alloc(pool_t *pool)
{
	crit_state_t s = crit_enter();
	void *blk = pool->free_head;

	if (blk) {
		pool->free_head = link_get(blk);
		pool->free_count -= 1;
		bitmap_set(pool, (size_t)block_index(pool, blk));
	}
	crit_exit(s);
	return blk;
}

int pool_free(pool_t *pool, void *ptr)
{
	long idx;
	int result;
	crit_state_t s;

	if (ptr == NULL)
		return POOL_ENOTBLOCK;
	idx = block_index(pool, ptr);
	if (idx < 0)
		return POOL_ENOTBLOCK;

	s = crit_enter();
	if (!bitmap_test(pool, (size_t)idx)) {
		result = POOL_EDOUBLE;       /* already on the free list */
	} else {
		bitmap_clear(pool, (size_t)idx);
		link_set(ptr, pool->free_head);
		pool->free_head = ptr;
		pool->free_count += 1;
		result = POOL_OK;
	}
	crit_exit(s);
	return result;
}

size_t pool_free_count(const pool_t *pool)
{
	/* A single aligned word read: atomic on Cortex-M3. */
	return *(const volatile size_t *)&pool->free_count;
}
