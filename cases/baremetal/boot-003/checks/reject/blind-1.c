/* defect: the RAM vector table is aligned to only 128 bytes although a 48-entry (192-byte) table needs 256-byte alignment for VTOR on the Cortex-M3.
 * breaks: "The copy must be a valid table for the Cortex-M3 and every exception that was handled before the switch must still reach the same handler afterwards."
 * must_fail: ram_vector_table_aligned, scenario_ram_table_aligned_256
 */
/*
 * Relocate the Cortex-M3 vector table to RAM and install a PendSV handler
 * at run time (QEMU mps2-an385, bare metal, no CMSIS).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* System Control Block registers (architectural addresses). */
#define SCB_ICSR   (*(volatile uint32_t *)0xE000ED04u)
#define SCB_VTOR   (*(volatile uint32_t *)0xE000ED08u)

#define ICSR_PENDSVSET   (1u << 28)
#define ICSR_PENDSVCLR   (1u << 27)

#define VECTOR_COUNT     48u      /* 16 system exceptions + 32 IRQs */
#define PENDSV_EXC_NUM   14u

/*
 * VTOR requires the table base to be aligned: TBLOFF starts at bit 7,
 * so a 128-byte aligned array is accepted.
 */
static uint32_t ram_vectors[VECTOR_COUNT] __attribute__((aligned(128)));

static volatile uint32_t pendsv_runs;

static void ram_pendsv_handler(void)
{
    pendsv_runs++;
}

static inline void dsb(void) { __asm volatile ("dsb 0xF" ::: "memory"); }
static inline void isb(void) { __asm volatile ("isb 0xF" ::: "memory"); }

int main(void)
{
    /* 1. Copy the currently active table (wherever VTOR points) to RAM. */
    const volatile uint32_t *active = (const volatile uint32_t *)(uintptr_t)SCB_VTOR;
    for (uint32_t i = 0; i < VECTOR_COUNT; i++) {
        ram_vectors[i] = active[i];
    }

    /* Switch with interrupts masked so no exception sees a half-done state. */
    __asm volatile ("cpsid i" ::: "memory");
    dsb();                                   /* table writes complete      */
    SCB_VTOR = (uint32_t)(uintptr_t)ram_vectors;
    dsb();                                   /* VTOR write complete        */
    isb();                                   /* later fetches use new VTOR */
    __asm volatile ("cpsie i" ::: "memory");

    /* 2. Verify the relocation. */
    uint32_t vtor = SCB_VTOR;
    if (vtor != (uint32_t)(uintptr_t)ram_vectors) {
        printf("vtor relocation failed: VTOR=0x%08lx expected 0x%08lx\n",
               (unsigned long)vtor, (unsigned long)(uintptr_t)ram_vectors);
        exit(1);
    }
    for (uint32_t i = 0; i < VECTOR_COUNT; i++) {
        if (ram_vectors[i] != active[i]) {
            printf("vector table copy mismatch at entry %lu\n", (unsigned long)i);
            exit(1);
        }
    }
    printf("vtor relocated to 0x%08lx\n", (unsigned long)vtor);

    /* 3. Install our PendSV handler in the RAM table (exception 14). */
    pendsv_runs = 0;
    ram_vectors[PENDSV_EXC_NUM] = (uint32_t)(uintptr_t)&ram_pendsv_handler;
    dsb();
    isb();

    /* 4. Pend PendSV by software; it is taken as soon as the barrier completes. */
    SCB_ICSR = ICSR_PENDSVSET;
    dsb();
    isb();

    uint32_t runs = pendsv_runs;
    if (runs != 1u) {
        printf("ram pendsv handler failed: ran %lu times (expected 1)\n",
               (unsigned long)runs);
        exit(1);
    }
    if (SCB_ICSR & ICSR_PENDSVSET) {
        printf("ram pendsv handler failed: PendSV still pending\n");
        exit(1);
    }
    printf("ram pendsv handler ran\n");

    exit(0);
}
