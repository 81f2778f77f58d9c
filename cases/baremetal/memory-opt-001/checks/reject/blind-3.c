/* defect: pool_free derives the block index by integer division without checking that the offset is a multiple of the stride, so an interior pointer frees its containing block and returns 0.
 * breaks: "`-1` when `p` is not a block address this pool hands out"
 * must_fail: free_rejects_interior_pointers, scenario_invalid_free_rejected
 */
/*
 * Static fixed-block allocator, bare-metal Cortex-M3 (mps2-an385, semihosting).
 *
 * Storage: one statically allocated, 8-byte aligned byte array cut into
 * POOL_BLOCK_COUNT slots whose stride is POOL_BLOCK_SIZE rounded up to 8.
 * Free blocks are tracked by a stack of block indices (O(1) push/pop) and a
 * state table, so alloc/free never scan the pool.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define POOL_BLOCK_COUNT 16u
#define POOL_BLOCK_SIZE  20u
#define POOL_ALIGN       8u
#define POOL_STRIDE      ((POOL_BLOCK_SIZE + POOL_ALIGN - 1u) & ~(POOL_ALIGN - 1u))

_Static_assert(POOL_STRIDE % POOL_ALIGN == 0u, "stride must keep 8-byte alignment");
_Static_assert(POOL_BLOCK_COUNT <= 255u, "indices stored in uint8_t");

static _Alignas(POOL_ALIGN) uint8_t pool_mem[POOL_BLOCK_COUNT * POOL_STRIDE];
static uint8_t pool_stack[POOL_BLOCK_COUNT];
static size_t  pool_top;
static bool    pool_used[POOL_BLOCK_COUNT];

void pool_init(void)
{
    for (size_t i = 0; i < POOL_BLOCK_COUNT; i++) {
        pool_stack[i] = (uint8_t)(POOL_BLOCK_COUNT - 1u - i);
        pool_used[i] = false;
    }
    pool_top = POOL_BLOCK_COUNT;
}

void *pool_alloc(void)
{
    uint8_t idx;

    if (pool_top == 0u) {
        return NULL;
    }
    idx = pool_stack[--pool_top];
    pool_used[idx] = true;
    return &pool_mem[(size_t)idx * POOL_STRIDE];
}

int pool_free(void *p)
{
    const uintptr_t base = (uintptr_t)pool_mem;
    const uintptr_t addr = (uintptr_t)p;
    size_t idx;

    if (addr < base || (addr - base) >= sizeof(pool_mem)) {
        return -1;
    }
    idx = (size_t)((addr - base) / POOL_STRIDE);

    if (!pool_used[idx]) {
        return -2;
    }
    pool_used[idx] = false;
    pool_stack[pool_top++] = (uint8_t)idx;
    return 0;
}

size_t pool_available(void)
{
    return pool_top;
}

static bool is_aligned8(const void *p)
{
    return ((uintptr_t)p % 8u) == 0u;
}

static void report(bool ok, const char *pass_msg, const char *what)
{
    if (ok) {
        printf("%s\n", pass_msg);
    } else {
        printf("FAIL: %s\n", what);
    }
}

int main(void)
{
    void *blk[POOL_BLOCK_COUNT];
    uint32_t on_stack = 0u;
    bool ok = true;

    pool_init();

    for (size_t i = 0; i < POOL_BLOCK_COUNT; i++) {
        blk[i] = pool_alloc();
        ok = ok && (blk[i] != NULL) && is_aligned8(blk[i]);
    }
    report(ok, "alloc 16 aligned ok", "alloc 16 aligned");

    report(pool_alloc() == NULL, "exhausted ok", "exhausted");

    {
        int first = pool_free(blk[5]);
        int second = pool_free(blk[5]);
        report(first == 0 && second == -2, "double free detected", "double free");
    }

    {
        int interior = pool_free((uint8_t *)blk[6] + 4);
        int foreign = pool_free(&on_stack);
        report(interior == -1 && foreign == -1, "invalid free rejected", "invalid free");
    }

    for (size_t i = 0; i < POOL_BLOCK_COUNT; i++) {
        if (i != 5u) {
            (void)pool_free(blk[i]);
        }
    }
    printf("available %u\n", (unsigned)pool_available());

    exit(0);
}
