/* defect: pool_init pushes blocks 0..n-1 onto the LIFO free list in ascending order, so the first pool_alloc returns the last block and blocks come out in descending address order.
 * breaks: "After `pool_init`, every block is free, and successive `pool_alloc` calls hand the blocks out in ascending address order (block 0 first)."
 * must_fail: scenario_exhausted_returns_null
 */
/*
 * pool.c - fixed-block memory pool of the FT-210 field terminal firmware.
 *
 * Free blocks are chained through their first word. Every operation that
 * touches the free list or the allocation bitmap runs with interrupts
 * masked (PRIMASK), and restores the caller's PRIMASK afterwards, so the
 * main loop and the timer 0 handler may share a pool.
 */
#include <stddef.h>
#include <stdint.h>

#include "pool.h"

#define POOL_MAX_BLOCK_SIZE 4096u

static inline uint32_t irq_save(void)
{
	uint32_t primask;

	__asm volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask) : : "memory");
	return primask;
}

static inline void irq_restore(uint32_t primask)
{
	__asm volatile("msr primask, %0" : : "r"(primask) : "memory");
}

int pool_init(pool_t *pool, void *buf, size_t buf_size, size_t block_size)
{
	uintptr_t start, aligned;
	size_t pad, stride, count, i;
	uint8_t *base;

	if (pool == NULL || buf == NULL)
		return POOL_EINVAL;
	if (block_size == 0u || block_size > POOL_MAX_BLOCK_SIZE)
		return POOL_EINVAL;

	start = (uintptr_t)buf;
	aligned = (start + (POOL_ALIGN - 1u)) & ~(uintptr_t)(POOL_ALIGN - 1u);
	pad = (size_t)(aligned - start);
	if (buf_size < pad)
		return POOL_EINVAL;

	stride = (block_size + (POOL_ALIGN - 1u)) & ~(size_t)(POOL_ALIGN - 1u);
	count = (buf_size - pad) / stride;
	if (count > POOL_MAX_BLOCKS)
		count = POOL_MAX_BLOCKS;
	if (count == 0u)
		return POOL_EINVAL;

	base = (uint8_t *)aligned;

	/* Push every block onto the free list. */
	pool->free_head = NULL;
	for (i = 0; i < count; i++) {
		void *blk = base + i * stride;
		*(void **)blk = pool->free_head;
		pool->free_head = blk;
	}

	pool->base = base;
	pool->stride = stride;
	pool->count = count;
	pool->free_count = count;
	for (i = 0; i < POOL_MAX_BLOCKS / 32u; i++)
		pool->allocated[i] = 0u;

	return (int)count;
}

void *pool_alloc(pool_t *pool)
{
	void *block;
	uint32_t key;

	if (pool == NULL)
		return NULL;

	key = irq_save();
	block = pool->free_head;
	if (block != NULL) {
		size_t idx = (size_t)((uint8_t *)block - pool->base) / pool->stride;

		pool->free_head = *(void **)block;
		pool->free_count--;
		pool->allocated[idx / 32u] |= 1u << (idx % 32u);
	}
	irq_restore(key);

	return block;
}

int pool_free(pool_t *pool, void *ptr)
{
	uintptr_t p, base, end;
	size_t off, idx;
	uint32_t bit, key;
	int rc;

	if (pool == NULL || ptr == NULL)
		return POOL_ENOTBLOCK;

	p = (uintptr_t)ptr;
	base = (uintptr_t)pool->base;
	end = base + pool->count * pool->stride;
	if (p < base || p >= end)
		return POOL_ENOTBLOCK;
	off = (size_t)(p - base);
	if (off % pool->stride != 0u)
		return POOL_ENOTBLOCK;

	idx = off / pool->stride;
	bit = 1u << (idx % 32u);

	key = irq_save();
	if ((pool->allocated[idx / 32u] & bit) == 0u) {
		rc = POOL_EDOUBLE;
	} else {
		pool->allocated[idx / 32u] &= ~bit;
		*(void **)ptr = pool->free_head;
		pool->free_head = ptr;
		pool->free_count++;
		rc = POOL_OK;
	}
	irq_restore(key);

	return rc;
}

size_t pool_free_count(const pool_t *pool)
{
	size_t n;
	uint32_t key;

	if (pool == NULL)
		return 0u;

	key = irq_save();
	n = pool->free_count;
	irq_restore(key);

	return n;
}
