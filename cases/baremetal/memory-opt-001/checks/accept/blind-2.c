/*
 * Static fixed-block allocator, bare-metal Cortex-M3 (mps2-an385, semihosting).
 *
 * Storage: one statically allocated, 8-byte aligned byte array cut into
 * POOL_BLOCK_COUNT slots whose stride is POOL_BLOCK_SIZE rounded up to 8.
 * Free blocks are tracked by a stack of block indices (O(1) push/pop) and a
 * state table, so alloc/free never scan the pool. Short critical sections
 * (PRIMASK) keep the pool consistent if it is also used from interrupts.
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
static uint8_t pool_stack[POOL_BLOCK_COUNT];   /* indices of free blocks */
static size_t  pool_top;                        /* number of entries in pool_stack */
static bool    pool_used[POOL_BLOCK_COUNT];

static inline uint32_t irq_lock(void)
{
    uint32_t primask;
    __asm volatile ("mrs %0, primask\n\tcpsid i" : "=r" (primask) :: "memory");
    return primask;
}

static inline void irq_unlock(uint32_t primask)
{
    __asm volatile ("msr primask, %0" :: "r" (primask) : "memory");
}

void pool_init(void)
{
    uint32_t key = irq_lock();

    for (size_t i = 0; i < POOL_BLOCK_COUNT; i++) {
        /* lowest index on top of the stack */
        pool_stack[i] = (uint8_t)(POOL_BLOCK_COUNT - 1u - i);
        pool_used[i] = false;
    }
    pool_top = POOL_BLOCK_COUNT;

    irq_unlock(key);
}

void *pool_alloc(void)
{
    void *p = NULL;
    uint32_t key = irq_lock();

    if (pool_top > 0u) {
        uint8_t idx = pool_stack[--pool_top];
        pool_used[idx] = true;
        p = &pool_mem[(size_t)idx * POOL_STRIDE];
    }

    irq_unlock(key);
    return p;
}

int pool_free(void *p)
{
    const uintptr_t base = (uintptr_t)pool_mem;
    const uintptr_t addr = (uintptr_t)p;
    uintptr_t off;
    size_t idx;
    int rc;
    uint32_t key;

    if (addr < base || (addr - base) >= sizeof(pool_mem)) {
        return -1;
    }
    off = addr - base;
    if (off % POOL_STRIDE != 0u) {
        return -1;
    }
    idx = off / POOL_STRIDE;

    key = irq_lock();
    if (!pool_used[idx]) {
        rc = -2;
    } else {
        pool_used[idx] = false;
        pool_stack[pool_top++] = (uint8_t)idx;
        rc = 0;
    }
    irq_unlock(key);

    return rc;
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
