#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define ARENA_SIZE 1024u

static uint64_t backing[ARENA_SIZE / sizeof(uint64_t)];
static size_t used;

void *arena_alloc(size_t size)
{
	size_t start = (used + 7u) & ~(size_t)7u;

	if (size == 0u || start > ARENA_SIZE || size > ARENA_SIZE - start) {
		return NULL;
	}
	used = start + size;
	return (uint8_t *)backing + start;
}

size_t arena_mark(void) { return used; }

int arena_release(size_t mark)
{
	if (mark > used)
		return -1;
	used = mark;
	return 0;
}

size_t arena_used(void) { return used; }

int main(void)
{
	int fails = 0;
	char *a = arena_alloc(3), *b = arena_alloc(13), *c = arena_alloc(1);
	int ok = a && b && c && ((uintptr_t)a & 7u) == 0 && ((uintptr_t)b & 7u) == 0 &&
		 ((uintptr_t)c & 7u) == 0 && b >= a + 3 && c >= b + 13;
	printf("alloc aligned %s\n", ok ? "ok" : "FAIL");
	fails += !ok;

	ok = !arena_alloc(SIZE_MAX) && !arena_alloc(SIZE_MAX - 4) && !arena_alloc(ARENA_SIZE) && !arena_alloc(0);
	printf("overflow rejected %s\n", ok ? "ok" : "FAIL");
	fails += !ok;

	size_t m = arena_mark();
	void *t = arena_alloc(200);
	ok = t && arena_release(m) == 0 && arena_used() == m && arena_alloc(200) == t;
	arena_release(m);
	ok = ok && arena_release(ARENA_SIZE + 1) == -1 && arena_used() == m;
	printf("scope release %s\n", ok ? "ok" : "FAIL");
	fails += !ok;

	arena_release(0);
	ok = arena_alloc(ARENA_SIZE) && !arena_alloc(1);
	arena_release(0);
	printf("arena full %s, used %u\n", ok ? "ok" : "FAIL", (unsigned)arena_used());
	fails += !ok;
	return fails ? 1 : 0;
}
