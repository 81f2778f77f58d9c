/*
 * Fixed-block memory pool (pool.h) for the FT-210 field terminal.
 *
 * Free blocks are chained through their first word; a bitmap in pool_t
 * records which blocks are handed out, so pool_free() can reject a double
 * free in O(1). Every operation runs with interrupts masked (PRIMASK saved
 * and restored) because timer 0's handler uses the same pool.
 */
#include <stddef.h>
#include <stdint.h>

#include "pool.h"

#define POOL_MAX_BLOCK_SIZE 4096u

static inline uint32_t irq_save(void)
{
	uint32_t primask;

	__asm__ volatile("mrs %0, primask" : "=r"(primask));
	__asm__ volatile("cpsid i" : : : "memory");
	return primask;
}

static inline void irq_restore(uint32_t primask)
{
	__asm__ volatile("msr primask, %0" : : "r"(primask) : "memory");
}

int pool_init(pool_t *pool, void *buf, size_t buf_size, size_t block_size)
{
	uintptr_t start, first;
	size_t pad, stride, n, i;

	if (pool == NULL || buf == NULL || block_size == 0u || block_size > POOL_MAX_BLOCK_SIZE) {
		return POOL_EINVAL;
	}
	start = (uintptr_t)buf;
	first = (start + (POOL_ALIGN - 1u)) & ~(uintptr_t)(POOL_ALIGN - 1u);
	pad = (size_t)(first - start);
	if (buf_size < pad) {
		return POOL_EINVAL;
	}
	stride = (block_size + (POOL_ALIGN - 1u)) & ~(size_t)(POOL_ALIGN - 1u);
	n = (buf_size - pad) / stride;
	if (n == 0u) {
		return POOL_EINVAL;
	}
	if (n > POOL_MAX_BLOCKS) {
		n = POOL_MAX_BLOCKS;
	}

	pool->base = (uint8_t *)first;
	pool->stride = stride;
	pool->count = n;
	for (i = 0; i < n; i++) {
		void **link = (void **)(pool->base + i * stride);
		*link = (i + 1u < n) ? (void *)(pool->base + (i + 1u) * stride) : NULL;
	}
	for (i = 0; i < POOL_MAX_BLOCKS / 32u; i++) {
		pool->allocated[i] = 0u;
	}
	pool->free_head = pool->base;
	pool->free_count = n;
	return (int)n;
}

void *pool_alloc(pool_t *pool)
{
	uint32_t key = irq_save();
	void *block = pool->free_head;

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
	uintptr_t p = (uintptr_t)ptr;
	uintptr_t base = (uintptr_t)pool->base;
	size_t off, idx;
	uint32_t bit, key;
	int rc;

	if (ptr == NULL || p < base) {
		return POOL_ENOTBLOCK;
	}
	off = (size_t)(p - base);
	if (off / pool->stride >= pool->count || off % pool->stride != 0u) {
		return POOL_ENOTBLOCK;
	}
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
	return *(const volatile size_t *)&pool->free_count;
}
