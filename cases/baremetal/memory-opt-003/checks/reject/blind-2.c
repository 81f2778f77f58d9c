/* defect: the static arena buffer is a plain uint8_t array with no alignment attribute, so its base (and every offset-rounded pointer) is only guaranteed byte alignment, not 8-byte alignment.
 * breaks: "Every returned pointer must be 8-byte aligned (callers store `uint64_t` and `double`)."
 * must_fail: arena_base_aligned
 */
/*
 * Static bump arena with 8-byte alignment, overflow-safe fit test and
 * mark/release scopes, plus a semihosted self-test (QEMU mps2-an385).
 * No C library heap is used anywhere.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define ARENA_SIZE   1024u
#define ARENA_ALIGN  8u

_Static_assert(ARENA_SIZE % ARENA_ALIGN == 0u, "arena size must be a multiple of the alignment");

/* Backing store: statically allocated. */
static uint8_t arena_buf[ARENA_SIZE];

/* Offset of the first free byte; always a multiple of ARENA_ALIGN. */
static size_t arena_top;

void *arena_alloc(size_t size)
{
    size_t remaining = ARENA_SIZE - arena_top;

    if (size == 0u) {
        return NULL;
    }
    /* Compare the raw size first: after this, size <= remaining <= ARENA_SIZE,
     * so rounding it up to the alignment cannot wrap around. */
    if (size > remaining) {
        return NULL;
    }
    size_t rounded = (size + (ARENA_ALIGN - 1u)) & ~(size_t)(ARENA_ALIGN - 1u);
    if (rounded > remaining) {
        return NULL;
    }

    void *p = &arena_buf[arena_top];
    arena_top += rounded;
    return p;
}

size_t arena_mark(void)
{
    return arena_top;
}

int arena_release(size_t mark)
{
    /* A valid mark is a state at or below the current one; every state the
     * arena can be in is a multiple of the alignment. */
    if (mark > arena_top || (mark % ARENA_ALIGN) != 0u) {
        return -1;
    }
    arena_top = mark;
    return 0;
}

size_t arena_used(void)
{
    return arena_top;
}

/* ------------------------------------------------------------------ */

static int is_aligned(const void *p)
{
    return ((uintptr_t)p % ARENA_ALIGN) == 0u;
}

static int disjoint(const void *a, size_t na, const void *b, size_t nb)
{
    uintptr_t a0 = (uintptr_t)a, a1 = a0 + na;
    uintptr_t b0 = (uintptr_t)b, b1 = b0 + nb;
    return a1 <= b0 || b1 <= a0;
}

int main(void)
{
    int failed = 0;

    /* 1. small allocations */
    {
        void *a = arena_alloc(3);
        void *b = arena_alloc(13);
        void *c = arena_alloc(1);
        int ok = a != NULL && b != NULL && c != NULL &&
                 is_aligned(a) && is_aligned(b) && is_aligned(c) &&
                 disjoint(a, 3, b, 13) && disjoint(a, 3, c, 1) &&
                 disjoint(b, 13, c, 1);
        if (ok) {
            /* callers store 64-bit values: make sure that works */
            *(uint64_t *)a = 0x0123456789abcdefull;
            *(double *)b = 1.5;
            ok = *(uint64_t *)a == 0x0123456789abcdefull && *(double *)b == 1.5;
        }
        printf(ok ? "alloc aligned ok\n" : "alloc aligned FAIL\n");
        failed |= !ok;
    }

    /* 2. oversized / wrapping / zero requests */
    {
        size_t before = arena_used();
        int ok = before > 0u &&
                 arena_alloc(SIZE_MAX) == NULL &&
                 arena_alloc(SIZE_MAX - 4u) == NULL &&
                 arena_alloc(ARENA_SIZE) == NULL &&
                 arena_alloc(0) == NULL &&
                 arena_used() == before;
        printf(ok ? "overflow rejected ok\n" : "overflow rejected FAIL\n");
        failed |= !ok;
    }

    /* 3. scoped release */
    {
        size_t m = arena_mark();
        size_t before = arena_used();
        void *p1 = arena_alloc(200);
        int ok = p1 != NULL && arena_release(m) == 0 && arena_used() == before;
        void *p2 = arena_alloc(200);
        ok = ok && p2 != NULL && p2 == p1;
        size_t used_now = arena_used();
        ok = ok && arena_release(ARENA_SIZE + 1u) == -1 && arena_used() == used_now;
        printf(ok ? "scope release ok\n" : "scope release FAIL\n");
        failed |= !ok;
    }

    /* 4. fill the arena completely */
    {
        int ok = arena_release(0) == 0;
        void *all = arena_alloc(ARENA_SIZE);
        ok = ok && all != NULL && is_aligned(all) && arena_used() == ARENA_SIZE;
        ok = ok && arena_alloc(1) == NULL && arena_used() == ARENA_SIZE;
        ok = ok && arena_release(0) == 0;
        size_t used = arena_used();
        ok = ok && used == 0u;
        if (ok) {
            printf("arena full ok, used %lu\n", (unsigned long)used);
        } else {
            printf("arena full FAIL, used %lu\n", (unsigned long)used);
        }
        failed |= !ok;
    }

    exit(failed ? 1 : 0);
}
