/* defect: head and tail are plain (non-volatile, non-atomic) variables with no barrier, so the compiler may cache them and reorder the data store after the index update, breaking the hand-off between the ISR and the main loop.
 * breaks: "In the final firmware the UART receive interrupt is the only code that adds bytes, and the main loop is the only code that removes them."
 * must_fail: indices_volatile_or_atomic, data_published_before_index
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define RB_CAPACITY 16u
#define RB_MASK     (RB_CAPACITY - 1u)

_Static_assert((RB_CAPACITY & RB_MASK) == 0u, "RB_CAPACITY must be a power of two");

typedef struct {
    uint8_t  buf[RB_CAPACITY];
    uint32_t head;   /* only the producer writes it */
    uint32_t tail;   /* only the consumer writes it */
} ringbuf_t;

static ringbuf_t rb;

bool rb_put(uint8_t byte)
{
    if ((uint32_t)(rb.head - rb.tail) == RB_CAPACITY) {
        return false;
    }
    rb.buf[rb.head & RB_MASK] = byte;
    rb.head++;
    return true;
}

bool rb_get(uint8_t *byte)
{
    if (rb.head == rb.tail) {
        return false;
    }
    *byte = rb.buf[rb.tail & RB_MASK];
    rb.tail++;
    return true;
}

size_t rb_count(void)
{
    return (size_t)(rb.head - rb.tail);
}

static bool put_seq(uint8_t start, unsigned n)
{
    bool ok = true;
    for (unsigned i = 0; i < n; i++) {
        if (!rb_put((uint8_t)(start + i))) {
            ok = false;
        }
    }
    return ok;
}

static bool get_seq(uint8_t start, unsigned n)
{
    bool ok = true;
    for (unsigned i = 0; i < n; i++) {
        uint8_t b;
        if (!rb_get(&b) || b != (uint8_t)(start + i)) {
            ok = false;
        }
    }
    return ok;
}

int main(void)
{
    uint8_t b;

    if (put_seq(0x20u, RB_CAPACITY)) {
        printf("fill 16 ok\n");
    }
    if (!rb_put(0x99u)) {
        printf("full rejected\n");
    }
    if (get_seq(0x20u, RB_CAPACITY)) {
        printf("fifo order ok\n");
    }
    if (!rb_get(&b)) {
        printf("empty detected\n");
    }

    bool ok = true;
    uint8_t seq = 0u;
    for (int r = 0; r < 500; r++) {
        ok = put_seq(seq, 7u) && ok;
        ok = get_seq(seq, 7u) && ok;
        seq = (uint8_t)(seq + 7u);
    }
    if (ok) {
        printf("wrap ok\n");
    }

    (void)put_seq(0u, 3u);
    printf("count %u\n", (unsigned)rb_count());

    exit(0);
}
