/* defect: memcpy is given the entry count (48) instead of the byte count, so only the first 12 vectors are copied and PendSV, SysTick and all 32 external interrupt entries of the RAM table are left zero.
 * breaks: "The copy must be a valid table for the Cortex-M3 and every exception that was handled before the switch must still reach the same handler afterwards."
 * must_fail: flash_table_copied_before_switch
 */
/*
 * Relocate the Cortex-M3 vector table to RAM and install a PendSV handler
 * at run time (QEMU mps2-an385, bare metal, no CMSIS).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* System Control Block registers (architectural addresses). */
#define SCB_ICSR   (*(volatile uint32_t *)0xE000ED04u)
#define SCB_VTOR   (*(volatile uint32_t *)0xE000ED08u)

#define ICSR_PENDSVSET   (1u << 28)

#define VECTOR_COUNT     48u      /* 16 system exceptions + 32 IRQs */
#define PENDSV_EXC_NUM   14u

/* 48 entries * 4 bytes = 192 bytes -> next power of two is 256. */
static uint32_t ram_vectors[VECTOR_COUNT] __attribute__((aligned(256)));

static volatile uint32_t pendsv_runs;

static void ram_pendsv_handler(void)
{
    pendsv_runs++;
}

static inline void dsb(void) { __asm volatile ("dsb 0xF" ::: "memory"); }
static inline void isb(void) { __asm volatile ("isb 0xF" ::: "memory"); }

int main(void)
{
    const uint32_t *active = (const uint32_t *)(uintptr_t)SCB_VTOR;

    __asm volatile ("cpsid i" ::: "memory");
    memcpy(ram_vectors, active, VECTOR_COUNT);
    dsb();
    SCB_VTOR = (uint32_t)(uintptr_t)ram_vectors;
    dsb();
    isb();
    __asm volatile ("cpsie i" ::: "memory");

    uint32_t vtor = SCB_VTOR;
    if (vtor != (uint32_t)(uintptr_t)ram_vectors) {
        printf("vtor relocation failed: VTOR=0x%08lx expected 0x%08lx\n",
               (unsigned long)vtor, (unsigned long)(uintptr_t)ram_vectors);
        exit(1);
    }
    if (ram_vectors[0] != active[0] || ram_vectors[1] != active[1]) {
        printf("vector table copy mismatch\n");
        exit(1);
    }
    printf("vtor relocated to 0x%08lx\n", (unsigned long)vtor);

    pendsv_runs = 0;
    ram_vectors[PENDSV_EXC_NUM] = (uint32_t)(uintptr_t)&ram_pendsv_handler;
    dsb();
    isb();

    SCB_ICSR = ICSR_PENDSVSET;
    dsb();
    isb();

    uint32_t runs = pendsv_runs;
    if (runs != 1u) {
        printf("ram pendsv handler failed: ran %lu times (expected 1)\n",
               (unsigned long)runs);
        exit(1);
    }
    printf("ram pendsv handler ran\n");

    exit(0);
}
