#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define ARENA_SIZE  1024U
#define ARENA_ALIGN 8U

static uint8_t arena_mem[ARENA_SIZE] __attribute__((aligned(ARENA_ALIGN)));
static size_t arena_top;

void *arena_alloc(size_t size)
{
	size_t pad = (ARENA_ALIGN - (arena_top & (ARENA_ALIGN - 1U))) & (ARENA_ALIGN - 1U);
	size_t avail = ARENA_SIZE - arena_top;

	if (size == 0U || pad > avail || size > avail - pad) {
		return NULL;
	}
	void *p = &arena_mem[arena_top + pad];
	arena_top += pad + size;
	return p;
}

size_t arena_mark(void)
{
	return arena_top;
}

int arena_release(size_t mark)
{
	if (mark > arena_top) {
		return -1;
	}
	arena_top = mark;
	return 0;
}

size_t arena_used(void)
{
	return arena_top;
}

int main(void)
{
	bool aligned = true;
	uint8_t *a = arena_alloc(3);
	uint8_t *b = arena_alloc(13);
	uint8_t *c = arena_alloc(1);

	if (a == NULL || b == NULL || c == NULL) {
		aligned = false;
	} else {
		aligned = ((uintptr_t)a % ARENA_ALIGN) == 0U && ((uintptr_t)b % ARENA_ALIGN) == 0U &&
			  ((uintptr_t)c % ARENA_ALIGN) == 0U && b >= a + 3 && c >= b + 13;
	}
	printf("alloc aligned %s\n", aligned ? "ok" : "FAIL");

	bool rejected = arena_alloc(SIZE_MAX) == NULL && arena_alloc(SIZE_MAX - 4U) == NULL &&
			arena_alloc(ARENA_SIZE) == NULL && arena_alloc(0) == NULL;
	printf("overflow rejected %s\n", rejected ? "ok" : "FAIL");

	size_t before = arena_used();
	size_t mark = arena_mark();
	void *tmp = arena_alloc(200);
	bool scoped = tmp != NULL && arena_release(mark) == 0 && arena_used() == before &&
		      arena_alloc(200) == tmp && arena_release(mark) == 0;
	bool bad_mark = arena_release(ARENA_SIZE + 1U) == -1 && arena_used() == before;
	printf("scope release %s\n", scoped && bad_mark ? "ok" : "FAIL");

	arena_release(0);
	void *all = arena_alloc(ARENA_SIZE);
	bool full = all != NULL && arena_alloc(1) == NULL;
	arena_release(0);
	printf("arena full %s, used %u\n", full ? "ok" : "FAIL", (unsigned)arena_used());

	exit(aligned && rejected && scoped && bad_mark && full ? 0 : 1);
}
