/*
 * Bump arena over a static pool with scoped release, plus a semihosted
 * self-test driven by a table of test functions. arena_release tests the
 * valid case first and returns -1 after it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define ARENA_SIZE	1024u
#define ARENA_GRAIN	8u	/* alignment of every block handed out */

static _Alignas(ARENA_GRAIN) unsigned char pool[ARENA_SIZE];

static struct {
	size_t top;	/* first free byte; always <= ARENA_SIZE */
} arena;

size_t arena_used(void)
{
	return arena.top;
}

size_t arena_mark(void)
{
	return arena.top;
}

int arena_release(size_t mark)
{
	if (mark <= arena.top) {
		arena.top = mark;
		return 0;
	}
	return -1;
}

void *arena_alloc(size_t size)
{
	size_t start = arena.top;
	size_t end;

	if (size == 0u) {
		return NULL;
	}
	start += ((size_t)0 - start) & (ARENA_GRAIN - 1u);	/* pad to the grain; top <= ARENA_SIZE, no wrap */
	if (__builtin_add_overflow(start, size, &end) || end > ARENA_SIZE) {
		return NULL;
	}
	arena.top = end;
	return pool + start;
}

/* ---- self-test ---------------------------------------------------- */

static bool on_grain(const void *p)
{
	return ((uintptr_t)p & (uintptr_t)(ARENA_GRAIN - 1u)) == 0u;
}

static bool apart(const void *p, size_t plen, const void *q, size_t qlen)
{
	uintptr_t a = (uintptr_t)p;
	uintptr_t b = (uintptr_t)q;

	return a + plen <= b || b + qlen <= a;
}

static bool check_alignment(void)
{
	static const size_t sizes[3] = { 3u, 13u, 1u };
	void *blk[3];
	bool good = true;

	for (size_t i = 0; i < 3u; i++) {
		blk[i] = arena_alloc(sizes[i]);
		if (blk[i] == NULL || !on_grain(blk[i])) {
			good = false;
		}
	}
	for (size_t i = 0; good && i < 3u; i++) {
		for (size_t j = i + 1u; j < 3u; j++) {
			if (!apart(blk[i], sizes[i], blk[j], sizes[j])) {
				good = false;
			}
		}
	}
	printf("alloc aligned %s\n", good ? "ok" : "FAIL");
	return good;
}

static bool check_rejects(void)
{
	static const size_t bad[] = { SIZE_MAX, SIZE_MAX - 4u, ARENA_SIZE, 0u };
	bool good = true;

	if (arena_used() == 0u && arena_alloc(1u) == NULL) {
		good = false;	/* the ARENA_SIZE request needs a partly used arena */
	}
	size_t before = arena_used();
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (arena_alloc(bad[i]) != NULL || arena_used() != before) {
			good = false;
		}
	}
	printf("overflow rejected %s\n", good ? "ok" : "FAIL");
	return good;
}

static bool check_scope(void)
{
	size_t saved = arena_mark();
	bool good = false;
	void *first = arena_alloc(200u);

	if (first != NULL && arena_release(saved) == 0 && arena_used() == saved) {
		void *again = arena_alloc(200u);

		good = again == first && arena_release(saved) == 0;
	}
	if (arena_release(ARENA_SIZE + 1u) != -1 || arena_used() != saved) {
		good = false;
	}
	printf("scope release %s\n", good ? "ok" : "FAIL");
	return good;
}

static bool check_full(void)
{
	bool good = arena_release(0u) == 0 && arena_alloc(ARENA_SIZE) != NULL &&
		    arena_used() == ARENA_SIZE && arena_alloc(1u) == NULL;

	(void)arena_release(0u);
	printf("arena full %s, used %lu\n", good ? "ok" : "FAIL", (unsigned long)arena_used());
	return good;
}

int main(void)
{
	static bool (*const steps[])(void) = {
		check_alignment, check_rejects, check_scope, check_full,
	};
	unsigned failed = 0u;

	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		if (!steps[i]()) {
			failed++;
		}
	}
	exit(failed == 0u ? EXIT_SUCCESS : EXIT_FAILURE);
}
