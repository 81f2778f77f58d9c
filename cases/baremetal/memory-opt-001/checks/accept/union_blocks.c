#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define POOL_BLOCK_SIZE  20
#define POOL_BLOCK_COUNT 16

typedef union pool_block {
	union pool_block *next;
	uint8_t payload[POOL_BLOCK_SIZE];
	uint64_t align_u64;
	double align_dbl;
} pool_block_t;

static pool_block_t blocks_storage[POOL_BLOCK_COUNT];
static uint32_t used_mask;
static pool_block_t *head;
static size_t n_free;

void pool_init(void)
{
	head = NULL;
	used_mask = 0;
	for (int i = POOL_BLOCK_COUNT - 1; i >= 0; i--) {
		blocks_storage[i].next = head;
		head = &blocks_storage[i];
	}
	n_free = POOL_BLOCK_COUNT;
}

void *pool_alloc(void)
{
	if (!head) {
		return NULL;
	}
	pool_block_t *b = head;
	head = b->next;
	used_mask |= 1u << (unsigned)(b - blocks_storage);
	n_free--;
	return b->payload;
}

int pool_free(void *p)
{
	uintptr_t off = (uintptr_t)p - (uintptr_t)blocks_storage;

	if ((uintptr_t)p < (uintptr_t)blocks_storage || off >= sizeof(blocks_storage) ||
	    off % sizeof(pool_block_t) != 0) {
		return -1;
	}
	unsigned idx = (unsigned)(off / sizeof(pool_block_t));
	if ((used_mask & (1u << idx)) == 0) {
		return -2;
	}
	used_mask &= ~(1u << idx);
	blocks_storage[idx].next = head;
	head = &blocks_storage[idx];
	n_free++;
	return 0;
}

size_t pool_available(void)
{
	return n_free;
}

int main(void)
{
	void *p[POOL_BLOCK_COUNT];
	int ok = 1;
	int local;

	pool_init();
	for (int i = 0; i < POOL_BLOCK_COUNT; i++) {
		p[i] = pool_alloc();
		ok = ok && p[i] != NULL && ((uintptr_t)p[i] & 7u) == 0;
	}
	if (ok) {
		puts("alloc 16 aligned ok");
	}
	if (pool_alloc() == NULL) {
		puts("exhausted ok");
	}
	if (pool_free(p[5]) == 0 && pool_free(p[5]) == -2) {
		puts("double free detected");
	}
	if (pool_free((char *)p[1] + 4) == -1 && pool_free(&local) == -1) {
		puts("invalid free rejected");
	}
	for (int i = 0; i < POOL_BLOCK_COUNT; i++) {
		if (i != 5) {
			pool_free(p[i]);
		}
	}
	printf("available %u\n", (unsigned)pool_available());
	return 0;
}
