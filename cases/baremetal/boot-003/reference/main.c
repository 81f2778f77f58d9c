#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VECTOR_COUNT   48U
#define PENDSV_IRQN    14U

#define SCB_ICSR       (*(volatile uint32_t *)0xE000ED04UL)
#define SCB_VTOR       (*(volatile uint32_t *)0xE000ED08UL)
#define ICSR_PENDSVSET (1UL << 28)

typedef void (*vector_t)(void);

extern vector_t const vector_table[VECTOR_COUNT];

static vector_t ram_vectors[VECTOR_COUNT] __attribute__((aligned(256)));

static volatile uint32_t pendsv_hits;

static void ram_pendsv_handler(void)
{
	pendsv_hits++;
}

static void relocate_vectors(void)
{
	const vector_t *flash = (const vector_t *)SCB_VTOR;

	__asm volatile("cpsid i" ::: "memory");
	memcpy(ram_vectors, flash, sizeof(ram_vectors));
	__asm volatile("dsb" ::: "memory");
	SCB_VTOR = (uint32_t)ram_vectors;
	__asm volatile("dsb" ::: "memory");
	__asm volatile("isb" ::: "memory");
	__asm volatile("cpsie i" ::: "memory");
}

static void install_handler(uint32_t index, vector_t handler)
{
	ram_vectors[index] = handler;
	__asm volatile("dsb" ::: "memory");
	__asm volatile("isb" ::: "memory");
}

int main(void)
{
	relocate_vectors();

	if (SCB_VTOR != (uint32_t)ram_vectors || ram_vectors[1] != vector_table[1]) {
		printf("vtor relocation failed\n");
		exit(1);
	}
	printf("vtor relocated to 0x%08lx\n", (unsigned long)SCB_VTOR);

	install_handler(PENDSV_IRQN, ram_pendsv_handler);

	SCB_ICSR = ICSR_PENDSVSET;
	__asm volatile("dsb" ::: "memory");
	__asm volatile("isb" ::: "memory");

	if (pendsv_hits != 1U) {
		printf("ram handler did not run\n");
		exit(1);
	}
	printf("ram pendsv handler ran\n");
	exit(0);
}
