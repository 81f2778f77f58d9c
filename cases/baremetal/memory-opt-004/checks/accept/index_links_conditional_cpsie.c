/*
 * Accepted variant: the free list links are block numbers (n + 1, 0 ends
 * the list) kept in the first word of each free block; the critical
 * section re-enables interrupts only when they were enabled on entry.
 */
#include "pool.h"

#define MAX_BLOCK 4096u

typedef struct {
	uint32_t next_plus_one;
} free_link_t;

static uint32_t lock(void)
{
	uint32_t was;

	__asm__ volatile("mrs %0, PRIMASK\n\tcpsid i" : "=r"(was) : : "memory");
	return was;
}

static void unlock(uint32_t was)
{
	if ((was & 1u) == 0u) {
		__asm__ volatile("cpsie i" : : : "memory");
	} else {
		__asm__ volatile("" : : : "memory");
	}
}

static uint8_t *block_addr(const pool_t *pool, uint32_t n)
{
	return pool->base + (size_t)n * pool->stride;
}

static int is_set(const pool_t *pool, uint32_t n)
{
	return (pool->allocated[n >> 5] >> (n & 31u)) & 1u;
}

int pool_init(pool_t *pool, void *buf, size_t buf_size, size_t block_size)
{
	size_t skip, stride, blocks;
	uint32_t n;

	if (!pool || !buf || !block_size || block_size > MAX_BLOCK)
		return POOL_EINVAL;

	skip = (size_t)(-(uintptr_t)buf & (POOL_ALIGN - 1u));
	if (skip > buf_size)
		return POOL_EINVAL;
	stride = ((block_size + POOL_ALIGN - 1u) / POOL_ALIGN) * POOL_ALIGN;
	blocks = (buf_size - skip) / stride;
	if (blocks > POOL_MAX_BLOCKS)
		blocks = POOL_MAX_BLOCKS;
	if (blocks == 0u)
		return POOL_EINVAL;

	pool->base = (uint8_t *)buf + skip;
	pool->stride = stride;
	pool->count = blocks;
	for (n = 0; n < POOL_MAX_BLOCKS / 32u; n++)
		pool->allocated[n] = 0u;
	for (n = 0; n < blocks; n++) {
		free_link_t *l = (free_link_t *)block_addr(pool, n);
		l->next_plus_one = (n + 1u < blocks) ? n + 2u : 0u;
	}
	pool->free_head = pool->base;
	pool->free_count = blocks;
	return (int)blocks;
}

void *pool_alloc(pool_t *pool)
{
	void *got = NULL;
	uint32_t was = lock();

	if (pool->free_head) {
		free_link_t *l = pool->free_head;
		uint32_t n = (uint32_t)(((uint8_t *)l - pool->base) / pool->stride);

		pool->free_head = l->next_plus_one ? (void *)block_addr(pool, l->next_plus_one - 1u) : NULL;
		pool->allocated[n >> 5] |= 1u << (n & 31u);
		pool->free_count -= 1u;
		got = l;
	}
	unlock(was);
	return got;
}

int pool_free(pool_t *pool, void *ptr)
{
	uintptr_t lo = (uintptr_t)pool->base;
	uintptr_t hi = lo + pool->count * pool->stride;
	uintptr_t p = (uintptr_t)ptr;
	uint32_t n, was;
	int result = POOL_OK;

	if (ptr == NULL || p < lo || p >= hi || (p - lo) % pool->stride)
		return POOL_ENOTBLOCK;
	n = (uint32_t)((p - lo) / pool->stride);

	was = lock();
	if (!is_set(pool, n)) {
		result = POOL_EDOUBLE;
	} else {
		free_link_t *l = ptr;
		uint32_t head_plus_one = pool->free_head
			? (uint32_t)(((uint8_t *)pool->free_head - pool->base) / pool->stride) + 1u : 0u;

		l->next_plus_one = head_plus_one;
		pool->free_head = ptr;
		pool->allocated[n >> 5] &= ~(1u << (n & 31u));
		pool->free_count += 1u;
	}
	unlock(was);
	return result;
}

size_t pool_free_count(const pool_t *pool)
{
	uint32_t was = lock();
	size_t n = pool->free_count;

	unlock(was);
	return n;
}
