/* defect: PendSV is "pended" by writing bit 26 of ICSR (PENDSTSET, SysTick) instead of bit 28 (PENDSVSET), so the RAM-installed PendSV handler is never triggered.
 * breaks: "Make PendSV pending by software through the Interrupt Control and State Register, then confirm in `main` that your handler executed exactly once and print `ram pendsv handler ran`."
 * must_fail: L2
 */
/*
 * Bare-metal Cortex-M3 (QEMU mps2-an385): move the vector table from flash
 * to RAM via SCB->VTOR, then install a PendSV handler at run time.
 */
#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*vector_t)(void);

/* System Control Space addresses (ARMv7-M ARM, B3.2). */
#define ICSR_ADDR  0xE000ED04u
#define VTOR_ADDR  0xE000ED08u

#define REG32(a)   (*(volatile uint32_t *)(uintptr_t)(a))

#define ICSR_PENDSVSET_BIT 26u

enum {
    NUM_VECTORS     = 16 + 32,
    EXC_PENDSV      = 14,
    /* Smallest power of two >= 48 * 4 bytes. */
    VTOR_ALIGNMENT  = 256
};

_Static_assert(NUM_VECTORS * sizeof(vector_t) <= VTOR_ALIGNMENT,
               "RAM vector table alignment too small for its size");

static alignas(VTOR_ALIGNMENT) vector_t ram_table[NUM_VECTORS];

static volatile unsigned pendsv_hits;

static void my_pendsv(void)
{
    pendsv_hits = pendsv_hits + 1u;
}

static void fail(const char *what)
{
    printf("FAIL: %s\n", what);
    exit(1);
}

static uint32_t irq_save(void)
{
    uint32_t primask;
    __asm volatile ("mrs %0, primask\n\tcpsid i" : "=r"(primask) :: "memory");
    return primask;
}

static void irq_restore(uint32_t primask)
{
    __asm volatile ("msr primask, %0" :: "r"(primask) : "memory");
}

static void barriers(void)
{
    __asm volatile ("dsb\n\tisb" ::: "memory");
}

/* Copy the table VTOR currently points at and make the core use the copy. */
static void relocate_vectors(void)
{
    const void *current = (const void *)(uintptr_t)REG32(VTOR_ADDR);
    uint32_t key = irq_save();

    memcpy(ram_table, current, sizeof ram_table);
    __asm volatile ("dsb" ::: "memory");
    REG32(VTOR_ADDR) = (uint32_t)(uintptr_t)ram_table;
    barriers();

    irq_restore(key);

    if (memcmp(ram_table, current, sizeof ram_table) != 0)
        fail("vector table copy does not match the original table");
}

/* Install a handler in whatever table VTOR currently selects. */
static void install_handler(unsigned exc_num, vector_t handler)
{
    vector_t *table = (vector_t *)(uintptr_t)REG32(VTOR_ADDR);
    uint32_t key = irq_save();
    table[exc_num] = handler;
    barriers();
    irq_restore(key);
}

int main(void)
{
    relocate_vectors();

    uint32_t vtor = REG32(VTOR_ADDR);
    if (vtor != (uint32_t)(uintptr_t)ram_table) {
        printf("VTOR is 0x%08lx, RAM table is at 0x%08lx\n",
               (unsigned long)vtor, (unsigned long)(uintptr_t)ram_table);
        fail("vtor not relocated");
    }
    printf("vtor relocated to 0x%08lx\n", (unsigned long)vtor);

    install_handler(EXC_PENDSV, my_pendsv);
    if (ram_table[EXC_PENDSV] != my_pendsv)
        fail("PendSV handler not installed in RAM table");

    pendsv_hits = 0;
    REG32(ICSR_ADDR) = 1u << ICSR_PENDSVSET_BIT;
    barriers();

    /* PendSV is taken right after the barriers in thread mode; allow a
     * short bounded wait anyway in case it is delayed. */
    for (volatile unsigned spin = 0; spin < 100000u && pendsv_hits == 0u; spin++) {
    }

    if (pendsv_hits == 0u)
        fail("RAM-installed PendSV handler did not run");
    if (pendsv_hits != 1u) {
        printf("PendSV handler ran %u times\n", pendsv_hits);
        fail("RAM-installed PendSV handler ran more than once");
    }
    printf("ram pendsv handler ran\n");
    return 0;
}
