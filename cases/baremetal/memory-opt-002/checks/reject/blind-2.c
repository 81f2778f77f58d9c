/* defect: rb_put and rb_get protect the FIFO with a PRIMASK critical section (cpsid/cpsie), masking interrupts on both sides.
 * breaks: "Interrupt latency is critical, so neither side may mask interrupts or take a lock to use the FIFO."
 * must_fail: no_interrupt_masking_or_locks
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define RB_CAPACITY 16u
#define RB_MASK     (RB_CAPACITY - 1u)

_Static_assert((RB_CAPACITY & RB_MASK) == 0u, "RB_CAPACITY must be a power of two");

static uint8_t rb_buf[RB_CAPACITY];
static volatile uint32_t rb_head;
static volatile uint32_t rb_tail;

static inline uint32_t irq_save(void)
{
    uint32_t primask;
    __asm volatile ("mrs %0, primask\n\tcpsid i" : "=r" (primask) :: "memory");
    return primask;
}

static inline void irq_restore(uint32_t primask)
{
    __asm volatile ("msr primask, %0" :: "r" (primask) : "memory");
}

bool rb_put(uint8_t byte)
{
    bool ok = false;
    uint32_t key = irq_save();

    if ((uint32_t)(rb_head - rb_tail) < RB_CAPACITY) {
        rb_buf[rb_head & RB_MASK] = byte;
        rb_head++;
        ok = true;
    }

    irq_restore(key);
    return ok;
}

bool rb_get(uint8_t *byte)
{
    bool ok = false;
    uint32_t key = irq_save();

    if (rb_head != rb_tail) {
        *byte = rb_buf[rb_tail & RB_MASK];
        rb_tail++;
        ok = true;
    }

    irq_restore(key);
    return ok;
}

size_t rb_count(void)
{
    uint32_t tail = rb_tail;
    uint32_t head = rb_head;

    return (size_t)(head - tail);
}

int main(void)
{
    uint8_t b;
    bool ok;

    ok = true;
    for (unsigned i = 0; i < RB_CAPACITY; i++) {
        ok = rb_put((uint8_t)(0x10u + i)) && ok;
    }
    if (ok) {
        printf("fill 16 ok\n");
    }

    if (!rb_put(0xEEu)) {
        printf("full rejected\n");
    }

    ok = true;
    for (unsigned i = 0; i < RB_CAPACITY; i++) {
        if (!rb_get(&b) || b != (uint8_t)(0x10u + i)) {
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
    uint8_t next_put = 0u;
    uint8_t next_get = 0u;
    for (int round = 0; round < 500; round++) {
        for (int i = 0; i < 7; i++) {
            if (!rb_put(next_put++)) {
                ok = false;
            }
        }
        for (int i = 0; i < 7; i++) {
            if (!rb_get(&b) || b != next_get++) {
                ok = false;
            }
        }
    }
    if (ok) {
        printf("wrap ok\n");
    }

    for (int i = 0; i < 3; i++) {
        (void)rb_put((uint8_t)(0x40 + i));
    }
    printf("count %u\n", (unsigned)rb_count());

    exit(0);
}
