#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define RB_CAPACITY 16U
#define RB_MASK     (RB_CAPACITY - 1U)

_Static_assert((RB_CAPACITY & RB_MASK) == 0U, "RB_CAPACITY must be a power of two");

static uint8_t rb_buf[RB_CAPACITY];
static _Atomic uint32_t rb_head;
static _Atomic uint32_t rb_tail;

bool rb_put(uint8_t byte)
{
	uint32_t head = atomic_load_explicit(&rb_head, memory_order_relaxed);
	uint32_t tail = atomic_load_explicit(&rb_tail, memory_order_acquire);

	if (head - tail == RB_CAPACITY) {
		return false;
	}
	rb_buf[head & RB_MASK] = byte;
	atomic_store_explicit(&rb_head, head + 1U, memory_order_release);
	return true;
}

bool rb_get(uint8_t *byte)
{
	uint32_t tail = atomic_load_explicit(&rb_tail, memory_order_relaxed);
	uint32_t head = atomic_load_explicit(&rb_head, memory_order_acquire);

	if (head == tail) {
		return false;
	}
	*byte = rb_buf[tail & RB_MASK];
	atomic_store_explicit(&rb_tail, tail + 1U, memory_order_release);
	return true;
}

size_t rb_count(void)
{
	uint32_t head = atomic_load_explicit(&rb_head, memory_order_acquire);
	uint32_t tail = atomic_load_explicit(&rb_tail, memory_order_acquire);

	return (size_t)(head - tail);
}

int main(void)
{
	bool ok = true;
	uint8_t b;

	for (uint32_t i = 0; i < RB_CAPACITY; i++) {
		ok = ok && rb_put((uint8_t)(0xA0U + i));
	}
	printf("fill %u %s\n", (unsigned)RB_CAPACITY, ok ? "ok" : "FAIL");
	printf("full %s\n", rb_put(0x55U) ? "MISSED" : "rejected");

	ok = true;
	for (uint32_t i = 0; i < RB_CAPACITY; i++) {
		ok = ok && rb_get(&b) && b == (uint8_t)(0xA0U + i);
	}
	printf("fifo order %s\n", ok ? "ok" : "FAIL");
	printf("empty %s\n", rb_get(&b) ? "MISSED" : "detected");

	uint8_t next_in = 0;
	uint8_t next_out = 0;

	ok = true;
	for (unsigned round = 0; round < 500U; round++) {
		for (unsigned k = 0; k < 7U; k++) {
			ok = ok && rb_put(next_in++);
		}
		for (unsigned k = 0; k < 7U; k++) {
			ok = ok && rb_get(&b) && b == next_out++;
		}
	}
	printf("wrap %s\n", ok ? "ok" : "FAIL");

	(void)rb_put(1U);
	(void)rb_put(2U);
	(void)rb_put(3U);
	printf("count %u\n", (unsigned)rb_count());

	exit(0);
}
