/*
 * mps2-an385 (Cortex-M3): move the active vector table into SRAM, then hook
 * PendSV there at run time and prove the new entry is the one the core uses.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* System Control Block, ARMv7-M ARM B3.2.2, first three words at 0xE000ED00 */
typedef struct {
	volatile const uint32_t CPUID;
	volatile uint32_t ICSR;
	volatile uint32_t VTOR;
} scb_block_t;

#define SCB            ((scb_block_t *)0xE000ED00UL)

#define EXC_PENDSV     14
#define TABLE_WORDS    (16 + 32)

typedef void (*handler_fn)(void);

static volatile unsigned int pendsv_runs;

static void on_pendsv(void)
{
	++pendsv_runs;
}

/* 48 words = 192 bytes: VTOR needs the next power of two, 256 */
static handler_fn sram_table[TABLE_WORDS] __attribute__((aligned(256)));

static void fail(const char *what)
{
	printf("FAIL: %s\n", what);
	exit(1);
}

static int move_table_to_sram(void)
{
	const handler_fn *from = (const handler_fn *)SCB->VTOR;
	handler_fn *to = sram_table;
	unsigned int left = TABLE_WORDS;
	uint32_t saved;

	__asm volatile ("mrs %0, primask\n\tcpsid i" : "=r" (saved) :: "memory");
	while (left-- > 0U) {
		*to++ = *from++;
	}
	__asm volatile ("dsb 0xF" ::: "memory");
	SCB->VTOR = (uint32_t)sram_table;
	__asm volatile ("dsb 0xF" ::: "memory");
	__asm volatile ("isb 0xF" ::: "memory");
	__asm volatile ("msr primask, %0" :: "r" (saved) : "memory");

	return SCB->VTOR == (uint32_t)sram_table ? 0 : -1;
}

int main(void)
{
	if (move_table_to_sram() != 0) {
		fail("VTOR does not hold the SRAM table address");
	}
	if (sram_table[0] == 0 || sram_table[1] == 0) {
		fail("SRAM table lacks the initial SP / reset entries");
	}
	printf("vtor relocated to 0x%08lx\n", (unsigned long)SCB->VTOR);

	sram_table[EXC_PENDSV] = on_pendsv;
	__asm volatile ("dsb 0xF" ::: "memory");

	SCB->ICSR = 1UL << 28U;	/* ICSR.PENDSVSET */
	__asm volatile ("dsb 0xF\n\tisb 0xF" ::: "memory");

	if (pendsv_runs != 1U) {
		printf("FAIL: PendSV handler ran %u times\n", pendsv_runs);
		return 1;
	}
	printf("ram pendsv handler ran\n");
	return 0;
}
