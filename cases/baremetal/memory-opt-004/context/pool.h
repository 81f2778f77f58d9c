/*
 * pool.h - fixed-block memory pool of the FT-210 field terminal firmware.
 *
 * A pool hands out equal-sized blocks carved from a buffer that the caller
 * provides. Allocation and release are O(1): the free blocks are chained in
 * a singly linked free list whose links are stored inside the free blocks
 * themselves.
 */
#ifndef POOL_H
#define POOL_H

#include <stddef.h>
#include <stdint.h>

/* Every block starts at an address that is a multiple of POOL_ALIGN. */
#define POOL_ALIGN       8u
/* A pool never manages more than this many blocks. */
#define POOL_MAX_BLOCKS  256u

/* Return codes of pool_init() and pool_free(). */
#define POOL_OK           0
#define POOL_EINVAL      (-1)  /* pool_init: bad arguments, or not one block fits */
#define POOL_ENOTBLOCK   (-2)  /* pool_free: the pointer is not a block of the pool */
#define POOL_EDOUBLE     (-3)  /* pool_free: the block is already free */

/*
 * Pool control block. Its members are for the implementation of the functions below;
 * callers only pass its address to the functions below and never read or
 * write the members themselves.
 */
typedef struct {
	uint8_t *base;                          /* address of block 0 */
	size_t stride;                          /* distance between two blocks, bytes */
	size_t count;                           /* number of blocks */
	void *free_head;                        /* first block of the free list, or NULL */
	size_t free_count;                      /* number of free blocks */
	uint32_t allocated[POOL_MAX_BLOCKS / 32u]; /* bit i set: block i is handed out */
} pool_t;

/*
 * Sets the pool up over buf[0 .. buf_size-1]; every block of the pool is
 * free afterwards. Returns the number of blocks (1 .. POOL_MAX_BLOCKS), or
 * POOL_EINVAL. See the specification for the block layout.
 */
int pool_init(pool_t *pool, void *buf, size_t buf_size, size_t block_size);

/* Returns a free block (now handed out), or NULL when no block is free. */
void *pool_alloc(pool_t *pool);

/*
 * Returns the block at ptr to the pool: POOL_OK, or POOL_ENOTBLOCK /
 * POOL_EDOUBLE with the pool unchanged.
 */
int pool_free(pool_t *pool, void *ptr);

/* Number of free blocks. */
size_t pool_free_count(const pool_t *pool);

#endif /* POOL_H */
