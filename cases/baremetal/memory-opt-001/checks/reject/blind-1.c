/* defect: the block type is a 20-byte union containing a pointer (alignment 4), so aligning the array only aligns block 0 and every odd block lands on a 4-byte boundary.
 * breaks: "so every block address must be 8-byte aligned."
 * must_fail: L2, blocks_aligned_to_8
 */
/*
 * Fixed-block memory pool for a bare-metal Cortex-M3 (QEMU mps2-an385).
 *
 * 16 blocks of 20 usable bytes in static storage (no C library heap).
 * Free blocks are chained through an intrusive singly linked list, and a
 * per-block state byte allows O(1) double-free detection.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define POOL_BLOCK_COUNT 16u
#define POOL_BLOCK_SIZE  20u
#define POOL_ALIGN       8u

typedef union pool_block {
    union pool_block *next;                 /* valid only while the block is free */
    unsigned char     data[POOL_BLOCK_SIZE];
} pool_block_t;

_Static_assert(sizeof(pool_block_t) >= POOL_BLOCK_SIZE, "block too small");

static pool_block_t  pool_blocks[POOL_BLOCK_COUNT] __attribute__((aligned(POOL_ALIGN)));
static unsigned char pool_in_use[POOL_BLOCK_COUNT];
static pool_block_t *pool_free_head;
static size_t        pool_free_count;

void pool_init(void)
{
    pool_free_head = NULL;
    for (size_t i = POOL_BLOCK_COUNT; i-- > 0u;) {
        pool_blocks[i].next = pool_free_head;
        pool_free_head = &pool_blocks[i];
        pool_in_use[i] = 0u;
    }
    pool_free_count = POOL_BLOCK_COUNT;
}

void *pool_alloc(void)
{
    pool_block_t *blk = pool_free_head;

    if (blk == NULL) {
        return NULL;
    }
    pool_free_head = blk->next;
    pool_in_use[(size_t)(blk - pool_blocks)] = 1u;
    pool_free_count--;
    return blk;
}

int pool_free(void *p)
{
    uintptr_t addr = (uintptr_t)p;
    uintptr_t base = (uintptr_t)&pool_blocks[0];
    uintptr_t off;
    size_t idx;

    if (addr < base) {
        return -1;
    }
    off = addr - base;
    if (off >= sizeof(pool_blocks)) {
        return -1;
    }
    if ((off % sizeof(pool_block_t)) != 0u) {
        return -1;
    }
    idx = (size_t)(off / sizeof(pool_block_t));
    if (pool_in_use[idx] == 0u) {
        return -2;
    }

    pool_in_use[idx] = 0u;
    pool_blocks[idx].next = pool_free_head;
    pool_free_head = &pool_blocks[idx];
    pool_free_count++;
    return 0;
}

size_t pool_available(void)
{
    return pool_free_count;
}

int main(void)
{
    void *blocks[POOL_BLOCK_COUNT];
    int local = 0;
    int all_ok = 1;
    int r1, r2;

    pool_init();

    for (size_t i = 0; i < POOL_BLOCK_COUNT; i++) {
        blocks[i] = pool_alloc();
        if (blocks[i] == NULL || ((uintptr_t)blocks[i] & (POOL_ALIGN - 1u)) != 0u) {
            all_ok = 0;
        }
    }
    printf(all_ok ? "alloc 16 aligned ok\n" : "alloc 16 aligned FAILED\n");

    printf(pool_alloc() == NULL ? "exhausted ok\n" : "exhausted FAILED\n");

    r1 = pool_free(blocks[0]);
    r2 = pool_free(blocks[0]);
    printf((r1 == 0 && r2 == -2) ? "double free detected\n" : "double free FAILED\n");

    r1 = pool_free((unsigned char *)blocks[1] + 4);
    r2 = pool_free(&local);
    printf((r1 == -1 && r2 == -1) ? "invalid free rejected\n" : "invalid free FAILED\n");

    for (size_t i = 1; i < POOL_BLOCK_COUNT; i++) {
        (void)pool_free(blocks[i]);
    }
    printf("available %u\n", (unsigned)pool_available());

    exit(0);
}
