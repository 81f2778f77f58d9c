/*
 * Lock-free single-producer / single-consumer byte FIFO for a bare-metal
 * Cortex-M3 (QEMU mps2-an385), shared between a UART RX interrupt
 * (producer) and the main loop (consumer), plus a semihosted self-test.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define RB_CAPACITY 16u
#define RB_MASK     (RB_CAPACITY - 1u)

_Static_assert(RB_CAPACITY >= 2u && (RB_CAPACITY & (RB_CAPACITY - 1u)) == 0u,
               "RB_CAPACITY must be a power of two");

/* Data memory barrier: orders buffer accesses against index updates and
 * keeps the compiler from reordering across it. */
static inline void dmb(void)
{
    __asm volatile ("dmb" ::: "memory");
}

static uint8_t rb_buf[RB_CAPACITY];

/*
 * Free-running indices: head is written only by the producer, tail only by
 * the consumer. They are masked when used as array positions, so
 * head - tail (unsigned, modulo 2^32) is the fill level and all slots are
 * usable. 32-bit aligned loads/stores are single-copy atomic on Cortex-M3.
 */
static volatile uint32_t rb_head;
static volatile uint32_t rb_tail;

bool rb_put(uint8_t byte)
{
    uint32_t head = rb_head;
    uint32_t tail = rb_tail;

    if ((uint32_t)(head - tail) >= RB_CAPACITY) {
        return false;
    }

    rb_buf[head & RB_MASK] = byte;
    dmb();                 /* publish the data before the index */
    rb_head = head + 1u;
    return true;
}

bool rb_get(uint8_t *byte)
{
    uint32_t tail = rb_tail;
    uint32_t head = rb_head;

    if (head == tail) {
        return false;
    }

    dmb();                 /* read the data only after seeing the index */
    *byte = rb_buf[tail & RB_MASK];
    dmb();                 /* finish reading before releasing the slot */
    rb_tail = tail + 1u;
    return true;
}

size_t rb_count(void)
{
    uint32_t tail = rb_tail;
    uint32_t head = rb_head;

    return (size_t)(uint32_t)(head - tail);
}

int main(void)
{
    uint8_t b;
    bool ok;

    /* 1. fill */
    ok = true;
    for (unsigned i = 0; i < RB_CAPACITY; i++) {
        if (!rb_put((uint8_t)(0xA0u + i))) {
            ok = false;
        }
    }
    if (ok) {
        printf("fill 16 ok\n");
    }

    /* 2. overflow */
    if (!rb_put(0x55u)) {
        printf("full rejected\n");
    }

    /* 3. drain in order */
    ok = true;
    for (unsigned i = 0; i < RB_CAPACITY; i++) {
        if (!rb_get(&b) || b != (uint8_t)(0xA0u + i)) {
            ok = false;
        }
    }
    if (ok) {
        printf("fifo order ok\n");
    }

    /* 4. underflow */
    if (!rb_get(&b)) {
        printf("empty detected\n");
    }

    /* 5. wrap-around */
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

    /* 6. count */
    for (int i = 0; i < 3; i++) {
        (void)rb_put((uint8_t)i);
    }
    printf("count %u\n", (unsigned)rb_count());

    exit(0);
}
