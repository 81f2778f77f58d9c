/* defect: arena_release only rejects marks beyond ARENA_SIZE, so a mark above the current used size (a state never reached) is accepted and grows the arena over unallocated bytes.
 * breaks: "returns 0 on success and -1 (arena unchanged) if `mark` does not describe a state at or below the current one."
 * must_fail: release_validates_mark
 */
/*
 * Bump ("arena") allocator over a static buffer, with mark/release scopes.
 * Bare-metal Cortex-M3 on QEMU mps2-an385; results reported via semihosting.
 * The C library heap is never used.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define ARENA_SIZE  ((size_t)1024)
#define ALIGNMENT   ((size_t)8)

/* The union forces the storage to the strictest alignment callers need. */
static union {
    uint8_t  bytes[ARENA_SIZE];
    uint64_t u64;
    double   dbl;
} arena_storage __attribute__((aligned(8)));

static struct {
    uint8_t *base;
    size_t   used;   /* bytes consumed so far, alignment padding included */
} arena = { arena_storage.bytes, 0 };

/* Padding needed so that an allocation starting at offset `off` is aligned. */
static size_t pad_for(size_t off)
{
    uintptr_t addr = (uintptr_t)(arena.base + off);
    return (size_t)((ALIGNMENT - (addr % ALIGNMENT)) % ALIGNMENT);
}

void *arena_alloc(size_t size)
{
    if (size == 0) {
        return NULL;
    }

    size_t free_bytes = ARENA_SIZE - arena.used;   /* used <= ARENA_SIZE */
    size_t pad = pad_for(arena.used);

    /* Subtract instead of add so nothing can wrap around. */
    if (pad > free_bytes) {
        return NULL;
    }
    free_bytes -= pad;
    if (size > free_bytes) {
        return NULL;
    }

    uint8_t *p = arena.base + arena.used + pad;
    arena.used += pad + size;
    return p;
}

size_t arena_mark(void)
{
    return arena.used;
}

int arena_release(size_t mark)
{
    if (mark > ARENA_SIZE) {
        return -1;          /* not a valid arena offset */
    }
    arena.used = mark;
    return 0;
}

size_t arena_used(void)
{
    return arena.used;
}

/* ------------------------------ self-test ------------------------------ */

static bool aligned8(const void *p)
{
    return ((uintptr_t)p & (ALIGNMENT - 1)) == 0;
}

static bool no_overlap(const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
    return (a + na <= b) || (b + nb <= a);
}

static bool test_alloc_aligned(void)
{
    uint8_t *a = arena_alloc(3);
    uint8_t *b = arena_alloc(13);
    uint8_t *c = arena_alloc(1);

    if (a == NULL || b == NULL || c == NULL) {
        return false;
    }
    if (!aligned8(a) || !aligned8(b) || !aligned8(c)) {
        return false;
    }
    return no_overlap(a, 3, b, 13) && no_overlap(a, 3, c, 1) &&
           no_overlap(b, 13, c, 1);
}

static bool test_overflow_rejected(void)
{
    const size_t before = arena_used();
    static const size_t bad[] = { SIZE_MAX, SIZE_MAX - 4, ARENA_SIZE, 0 };

    if (before == 0) {
        return false;       /* the ARENA_SIZE case needs some space in use */
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (arena_alloc(bad[i]) != NULL || arena_used() != before) {
            return false;
        }
    }
    return true;
}

static bool test_scope_release(void)
{
    const size_t m = arena_mark();
    const size_t before = arena_used();

    void *first = arena_alloc(200);
    if (first == NULL || arena_release(m) != 0 || arena_used() != before) {
        return false;
    }
    void *second = arena_alloc(200);
    if (second != first) {
        return false;
    }
    const size_t now = arena_used();
    return arena_release(ARENA_SIZE + 1) == -1 && arena_used() == now;
}

static bool test_arena_full(void)
{
    if (arena_release(0) != 0) {
        return false;
    }
    void *all = arena_alloc(ARENA_SIZE);
    if (all == NULL || !aligned8(all) || arena_used() != ARENA_SIZE) {
        return false;
    }
    if (arena_alloc(1) != NULL || arena_used() != ARENA_SIZE) {
        return false;
    }
    return arena_release(0) == 0 && arena_used() == 0;
}

int main(void)
{
    bool all_ok = true;

    if (test_alloc_aligned()) {
        printf("alloc aligned ok\n");
    } else {
        printf("alloc aligned FAIL\n");
        all_ok = false;
    }

    if (test_overflow_rejected()) {
        printf("overflow rejected ok\n");
    } else {
        printf("overflow rejected FAIL\n");
        all_ok = false;
    }

    if (test_scope_release()) {
        printf("scope release ok\n");
    } else {
        printf("scope release FAIL\n");
        all_ok = false;
    }

    if (test_arena_full()) {
        printf("arena full ok, used %u\n", (unsigned)arena_used());
    } else {
        printf("arena full FAIL, used %u\n", (unsigned)arena_used());
        all_ok = false;
    }

    return all_ok ? 0 : 1;
}
