#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NUM_VECTORS 48

#define VTOR_REG  (*(volatile uint32_t *)0xE000ED08u)
#define ICSR_REG  (*(volatile uint32_t *)0xE000ED04u)

typedef void (*isr_t)(void);

static _Alignas(512) isr_t vectors_in_ram[NUM_VECTORS];
static volatile int pendsv_count;

static void my_pendsv(void)
{
	pendsv_count = pendsv_count + 1;
}

int main(void)
{
	const volatile isr_t *src = (const volatile isr_t *)VTOR_REG;

	for (int i = 0; i < NUM_VECTORS; i++) {
		vectors_in_ram[i] = src[i];
	}
	__asm__ volatile ("dsb\n\tcpsid i" ::: "memory");
	VTOR_REG = (uint32_t)(uintptr_t)vectors_in_ram;
	__asm__ volatile ("dsb\n\tisb\n\tcpsie i" ::: "memory");

	if (VTOR_REG != (uint32_t)(uintptr_t)vectors_in_ram) {
		printf("VTOR write did not stick\n");
		exit(1);
	}
	printf("vtor relocated to 0x%08lx\n", (unsigned long)VTOR_REG);

	vectors_in_ram[14] = my_pendsv;
	__asm__ volatile ("dsb" ::: "memory");

	ICSR_REG = 1u << 28;
	__asm__ volatile ("dsb\n\tisb" ::: "memory");

	if (pendsv_count != 1) {
		printf("pendsv count %d\n", pendsv_count);
		exit(1);
	}
	printf("ram pendsv handler ran\n");
	return 0;
}
