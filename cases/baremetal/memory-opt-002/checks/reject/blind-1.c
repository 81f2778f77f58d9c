/* defect: the FIFO uses masked head/tail indices with the "one empty slot" full test, so only 15 of the 16 bytes can ever be stored.
 * breaks: "The FIFO holds up to `RB_CAPACITY` = 16 bytes, and all 16 must be usable."
 * must_fail: L2, full_test_on_free_running_difference
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define RB_CAPACITY 16u
#define RB_MASK     (RB_CAPACITY - 1u)

_Static_assert((RB_CAPACITY & RB_MASK) == 0u, "RB_CAPACITY must be a power of two");

static inline void dmb(void)
{
    __asm volatile ("dmb" ::: "memory");
}

static uint8_t rb_buf[RB_CAPACITY];
static volatile uint32_t rb_head;   /* producer-owned, always < RB_CAPACITY */
static volatile uint32_t rb_tail;   /* consumer-owned, always < RB_CAPACITY */

bool rb_put(uint8_t byte)
{
    uint32_t head = rb_head;
    uint32_t next = (head + 1u) & RB_MASK;

    if (next == rb_tail) {
        return false;
    }

    rb_buf[head] = byte;
    dmb();
    rb_head = next;
    return true;
}

bool rb_get(uint8_t *byte)
{
    uint32_t tail = rb_tail;

    if (tail == rb_head) {
        return false;
    }

    dmb();
    *byte = rb_buf[tail];
    dmb();
    rb_tail = (tail + 1u) & RB_MASK;
    return true;
}

size_t rb_count(void)
{
    uint32_t head = rb_head;
    uint32_t tail = rb_tail;

    return (size_t)((head - tail) & RB_MASK);
}

int main(void)
{
    uint8_t b;
    bool ok;

    ok = true;
    for (unsigned i = 0; i < RB_CAPACITY; i++) {
        if (!rb_put((uint8_t)(0xA0u + i))) {
            ok = false;
        }
    }
    if (ok) {
        printf("fill 16 ok\n");
    }

    if (!rb_put(0x55u)) {
        printf("full rejected\n");
    }

    ok = true;
    for (unsigned i = 0; i < RB_CAPACITY; i++) {
        if (!rb_get(&b) || b != (uint8_t)(0xA0u + i)) {
            ok = false;
        }
    }
    if (ok) {
        printf("fifo order ok\n");
    }

    if (!rb_get(&b)) {
        printf("empty detected\n");
    }

    ok = true;
    uint8_t seq_in = 0u;
    uint8_t seq_out = 0u;
    for (int round = 0; round < 500; round++) {
        for (int i = 0; i < 7; i++) {
            if (!rb_put(seq_in++)) {
                ok = false;
            }
        }
        for (int i = 0; i < 7; i++) {
            if (!rb_get(&b) || b != seq_out) {
                ok = false;
            }
            seq_out++;
        }
    }
    if (ok) {
        printf("wrap ok\n");
    }

    for (int i = 0; i < 3; i++) {
        (void)rb_put((uint8_t)i);
    }
    printf("count %u\n", (unsigned)rb_count());

    exit(0);
}
