#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RB_CAPACITY (1U << 4)

struct ring {
	uint8_t data[RB_CAPACITY];
	volatile uint32_t wr;
	volatile uint32_t rd;
};

static struct ring fifo;

#define barrier() __asm__ volatile("" ::: "memory")

bool rb_put(uint8_t byte)
{
	uint32_t w = fifo.wr;

	if ((uint32_t)(w - fifo.rd) >= RB_CAPACITY) {
		return false;
	}
	fifo.data[w & (RB_CAPACITY - 1U)] = byte;
	barrier();
	fifo.wr = w + 1U;
	return true;
}

bool rb_get(uint8_t *byte)
{
	uint32_t r = fifo.rd;

	if (r == fifo.wr) {
		return false;
	}
	barrier();
	*byte = fifo.data[r & (RB_CAPACITY - 1U)];
	barrier();
	fifo.rd = r + 1U;
	return true;
}

size_t rb_count(void)
{
	return (size_t)(uint32_t)(fifo.wr - fifo.rd);
}

int main(void)
{
	uint8_t v;
	int good = 1;

	for (unsigned i = 0; i < 16; i++) {
		good &= rb_put((uint8_t)i);
	}
	puts(good ? "fill 16 ok" : "fill 16 FAIL");
	puts(!rb_put(99) ? "full rejected" : "full MISSED");
	good = 1;
	for (unsigned i = 0; i < 16; i++) {
		good &= rb_get(&v) && v == i;
	}
	puts(good ? "fifo order ok" : "fifo order FAIL");
	puts(!rb_get(&v) ? "empty detected" : "empty MISSED");

	uint8_t in = 0, out = 0;
	good = 1;
	for (int r = 0; r < 500; r++) {
		for (int k = 0; k < 7; k++) {
			good &= rb_put(in++);
		}
		for (int k = 0; k < 7; k++) {
			good &= rb_get(&v) && v == out++;
		}
	}
	puts(good ? "wrap ok" : "wrap FAIL");
	rb_put(7);
	rb_put(8);
	rb_put(9);
	printf("count %u\n", (unsigned)rb_count());
	return 0;
}
