#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define POOL_BLOCK_SIZE  20U
#define POOL_BLOCK_COUNT 16U
#define POOL_ALIGN       8U
#define BLOCK_STRIDE     ((POOL_BLOCK_SIZE + POOL_ALIGN - 1U) & ~(POOL_ALIGN - 1U))

#define POOL_OK          0
#define POOL_ERR_INVALID (-1)
#define POOL_ERR_DOUBLE  (-2)

struct free_block {
	struct free_block *next;
};

static uint8_t pool_mem[POOL_BLOCK_COUNT][BLOCK_STRIDE] __attribute__((aligned(POOL_ALIGN)));
static bool block_used[POOL_BLOCK_COUNT];
static struct free_block *free_list;
static size_t free_count;

void pool_init(void)
{
	free_list = NULL;
	for (size_t i = POOL_BLOCK_COUNT; i > 0U; i--) {
		struct free_block *b = (struct free_block *)pool_mem[i - 1U];

		b->next = free_list;
		free_list = b;
		block_used[i - 1U] = false;
	}
	free_count = POOL_BLOCK_COUNT;
}

void *pool_alloc(void)
{
	struct free_block *b = free_list;

	if (b == NULL) {
		return NULL;
	}
	free_list = b->next;
	block_used[((uint8_t *)b - &pool_mem[0][0]) / BLOCK_STRIDE] = true;
	free_count--;
	return b;
}

int pool_free(void *p)
{
	uintptr_t addr = (uintptr_t)p;
	uintptr_t base = (uintptr_t)&pool_mem[0][0];

	if (addr < base || addr >= base + sizeof(pool_mem)) {
		return POOL_ERR_INVALID;
	}
	if ((addr - base) % BLOCK_STRIDE != 0U) {
		return POOL_ERR_INVALID;
	}
	size_t idx = (addr - base) / BLOCK_STRIDE;

	if (!block_used[idx]) {
		return POOL_ERR_DOUBLE;
	}
	block_used[idx] = false;

	struct free_block *b = p;

	b->next = free_list;
	free_list = b;
	free_count++;
	return POOL_OK;
}

size_t pool_available(void)
{
	return free_count;
}

int main(void)
{
	void *blocks[POOL_BLOCK_COUNT];
	bool aligned = true;

	pool_init();
	for (size_t i = 0; i < POOL_BLOCK_COUNT; i++) {
		blocks[i] = pool_alloc();
		if (blocks[i] == NULL || ((uintptr_t)blocks[i] % POOL_ALIGN) != 0U) {
			aligned = false;
		}
	}
	printf("alloc %u aligned %s\n", (unsigned)POOL_BLOCK_COUNT, aligned ? "ok" : "FAIL");
	printf("exhausted %s\n", pool_alloc() == NULL ? "ok" : "FAIL");

	int first = pool_free(blocks[3]);
	int second = pool_free(blocks[3]);
	printf("double free %s\n", (first == POOL_OK && second == POOL_ERR_DOUBLE) ? "detected" : "MISSED");

	int outside = pool_free((uint8_t *)blocks[0] + 4);
	int stack = pool_free(&aligned);
	printf("invalid free %s\n", (outside == POOL_ERR_INVALID && stack == POOL_ERR_INVALID) ? "rejected" : "MISSED");

	for (size_t i = 0; i < POOL_BLOCK_COUNT; i++) {
		if (i != 3U) {
			(void)pool_free(blocks[i]);
		}
	}
	printf("available %u\n", (unsigned)pool_available());

	exit(0);
}
