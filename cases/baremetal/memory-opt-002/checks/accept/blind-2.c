/*
 * SPSC byte FIFO between the UART RX interrupt (producer) and the main loop
 * (consumer) on a bare-metal Cortex-M3, using C11 atomics with
 * acquire/release ordering instead of interrupt masking or locks.
 *
 * The indices run over [0, 2*RB_CAPACITY): the extra bit distinguishes a full
 * FIFO from an empty one, so every one of the RB_CAPACITY slots is usable.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define RB_CAPACITY   16u
#define RB_SLOT_MASK  (RB_CAPACITY - 1u)
#define RB_INDEX_MASK (2u * RB_CAPACITY - 1u)

_Static_assert((RB_CAPACITY & (RB_CAPACITY - 1u)) == 0u,
               "RB_CAPACITY must be a power of two");

typedef struct {
    uint8_t data[RB_CAPACITY];
    atomic_uint head;   /* written only by the producer */
    atomic_uint tail;   /* written only by the consumer */
} ring_t;

static ring_t rb;

static inline unsigned rb_advance(unsigned idx)
{
    return (idx + 1u) & RB_INDEX_MASK;
}

static inline unsigned rb_used(unsigned head, unsigned tail)
{
    return (head - tail) & RB_INDEX_MASK;
}

bool rb_put(uint8_t byte)
{
    unsigned head = atomic_load_explicit(&rb.head, memory_order_relaxed);
    unsigned tail = atomic_load_explicit(&rb.tail, memory_order_acquire);

    if (rb_used(head, tail) == RB_CAPACITY) {
        return false;
    }

    rb.data[head & RB_SLOT_MASK] = byte;
    atomic_store_explicit(&rb.head, rb_advance(head), memory_order_release);
    return true;
}

bool rb_get(uint8_t *byte)
{
    unsigned tail = atomic_load_explicit(&rb.tail, memory_order_relaxed);
    unsigned head = atomic_load_explicit(&rb.head, memory_order_acquire);

    if (head == tail) {
        return false;
    }

    *byte = rb.data[tail & RB_SLOT_MASK];
    atomic_store_explicit(&rb.tail, rb_advance(tail), memory_order_release);
    return true;
}

size_t rb_count(void)
{
    unsigned tail = atomic_load_explicit(&rb.tail, memory_order_acquire);
    unsigned head = atomic_load_explicit(&rb.head, memory_order_acquire);

    return rb_used(head, tail);
}

/* ---- self-test ---------------------------------------------------------- */

static bool put_run(uint8_t first, unsigned n)
{
    bool ok = true;
    for (unsigned i = 0; i < n; i++) {
        ok &= rb_put((uint8_t)(first + i));
    }
    return ok;
}

static bool get_run(uint8_t first, unsigned n)
{
    bool ok = true;
    for (unsigned i = 0; i < n; i++) {
        uint8_t b = 0;
        ok &= rb_get(&b) && (b == (uint8_t)(first + i));
    }
    return ok;
}

static void report(bool pass, const char *msg)
{
    if (pass) {
        puts(msg);
    }
}

int main(void)
{
    uint8_t b;

    report(put_run(1u, RB_CAPACITY), "fill 16 ok");
    report(!rb_put(0xFFu), "full rejected");
    report(get_run(1u, RB_CAPACITY), "fifo order ok");
    report(!rb_get(&b), "empty detected");

    bool wrap = true;
    uint8_t seq = 0u;
    for (unsigned r = 0; r < 500u; r++) {
        wrap &= put_run(seq, 7u);
        wrap &= get_run(seq, 7u);
        seq = (uint8_t)(seq + 7u);
    }
    report(wrap, "wrap ok");

    (void)put_run(0x30u, 3u);
    printf("count %u\n", (unsigned)rb_count());

    exit(0);
    return 0;
}
