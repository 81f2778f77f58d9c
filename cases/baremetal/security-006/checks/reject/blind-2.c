/* defect: after a data access violation the stacked PC is always advanced by 2, so a faulting
 *         32-bit Thumb load/store (e.g. STR.W, STRD) resumes in the middle of the instruction.
 * breaks: "after a data access violation, resume at the instruction that follows the faulting load or store (the faulting instruction is not executed; it may be a 16-bit or a 32-bit Thumb instruction);"
 * must_fail: scenario_code_flash_read_only, scenario_guard_exact_bounds, scenario_guard_denies_reads
 */
/*
 * KX-7 metering controller - MPU memory map and MemManage fault recovery.
 * Target: Cortex-M3 (ARMv7-M, PMSAv7 MPU with 8 regions), QEMU mps2-an385.
 */
#include <stdint.h>
#include <stdio.h>
#include "mpu_guard.h"

/* System Control Block / MPU registers (no CMSIS available). */
static volatile uint32_t *const shcsr     = (volatile uint32_t *)0xE000ED24u;
static volatile uint8_t  *const mmfsr_reg = (volatile uint8_t  *)0xE000ED28u; /* CFSR[7:0] */
static volatile uint32_t *const mmfar_reg = (volatile uint32_t *)0xE000ED34u;

static volatile uint32_t *const mpu_type  = (volatile uint32_t *)0xE000ED90u;
static volatile uint32_t *const mpu_ctrl  = (volatile uint32_t *)0xE000ED94u;
static volatile uint32_t *const mpu_rnr   = (volatile uint32_t *)0xE000ED98u;
static volatile uint32_t *const mpu_rbar  = (volatile uint32_t *)0xE000ED9Cu;
static volatile uint32_t *const mpu_rasr  = (volatile uint32_t *)0xE000EDA0u;

struct mpu_region {
    uint32_t base;
    uint32_t rasr;
};

/*
 * Region table, in priority order (a later entry wins where two overlap).
 *
 * RASR layout: XN[28] AP[26:24] TEX[21:19] S[18] C[17] B[16] SRD[15:8]
 *              SIZE[5:1] (region = 2^(SIZE+1) bytes) ENABLE[0]
 */
static const struct mpu_region regions[] = {
    /* code flash, 4 MB (SIZE=21): AP=110 RO/RO, executable,
     * TEX=000 C=1 B=0 S=0 -> Normal write-through, no write-allocate. */
    { CODE_BASE,        0x0602002Bu },
    /* SRAM, 4 MB (SIZE=21): XN, AP=011 RW/RW,
     * TEX=001 C=1 B=1 S=0 -> Normal write-back, read/write-allocate. */
    { SRAM_BASE,        0x130B002Bu },
    /* peripherals, 64 KB region (SIZE=15) of eight 8 KB subregions; SRD=0xC0
     * removes 0x4000C000..0x4000FFFF, leaving the 48 KB window.
     * XN, AP=001 privileged RW only, TEX=000 C=0 B=1 S=1 -> Device, shareable. */
    { PERIPH_BASE,      0x1105C01Fu },
    /* stack guard, 1 KB (SIZE=9): XN, AP=000 no access. Listed after SRAM
     * so that it overrides it. Memory type as SRAM. */
    { STACK_GUARD_BASE, 0x100B0013u },
};

#define N_USED_REGIONS  (sizeof regions / sizeof regions[0])

#define RBAR_VALID      0x10u          /* use RBAR[3:0] as the region number */

void mpu_setup(void)
{
    uint32_t n_regions = (*mpu_type >> 8) & 0xFFu;   /* DREGION */
    uint32_t r;

    if (n_regions == 0u || n_regions > 16u) {
        n_regions = 8u;
    }

    *mpu_ctrl = 0u;            /* MPU off while regions change */

    for (r = 0u; r < n_regions; r++) {
        *mpu_rbar = (r < N_USED_REGIONS ? regions[r].base : 0u) | RBAR_VALID | r;
        *mpu_rasr = (r < N_USED_REGIONS ? regions[r].rasr : 0u);
    }
    *mpu_rnr = 0u;

    *shcsr |= 1u << 16;        /* MEMFAULTENA */
    *mpu_ctrl = 1u;            /* ENABLE=1, HFNMIENA=0, PRIVDEFENA=0 */

    __asm volatile ("dsb sy" ::: "memory");
    __asm volatile ("isb sy" ::: "memory");
}

/* ------------------------------------------------------------------ */

struct exc_frame {
    uint32_t r0, r1, r2, r3, r12, lr, pc, xpsr;
};

#define XPSR_T          (1u << 24)
#define XPSR_IT_LO_MASK (3u << 25)     /* IT[1:0] */
#define XPSR_IT_HI_MASK (0x3Fu << 10)  /* IT[7:2] */

/* ITAdvance() on the stacked xPSR. */
static void skip_it_slot(struct exc_frame *f)
{
    uint32_t it_lo = (f->xpsr & XPSR_IT_LO_MASK) >> 25;
    uint32_t it_hi = (f->xpsr & XPSR_IT_HI_MASK) >> 10;
    uint32_t it = (it_hi << 2) | it_lo;

    if ((it & 0x07u) == 0u) {
        it = 0u;
    } else {
        uint32_t low5 = (it << 1) & 0x1Fu;
        it = (it & 0xE0u) | low5;
    }
    f->xpsr = (f->xpsr & ~(XPSR_IT_LO_MASK | XPSR_IT_HI_MASK))
            | ((it & 3u) << 25) | ((it >> 2) << 10);
}

void kx7_memfault(struct exc_frame *f, uint32_t exc_return);

void kx7_memfault(struct exc_frame *f, uint32_t exc_return)
{
    const uint8_t status = *mmfsr_reg;
    const uint32_t addr = *mmfar_reg;

    (void)exc_return;

    if (status & 0x02u) {                              /* DACCVIOL */

        if (status & 0x80u) {                          /* MMARVALID */
            printf("MemManage: DACCVIOL at 0x%08lX\n", (unsigned long)addr);
        } else {
            puts("MemManage: DACCVIOL at unknown");
        }
        f->pc += 2u;                                   /* skip the load/store */
        skip_it_slot(f);
        *mmfsr_reg = (uint8_t)(status & 0x82u);        /* w1c DACCVIOL, MMARVALID */
        return;
    }

    if (status & 0x01u) {                              /* IACCVIOL */
        puts("MemManage: IACCVIOL");
        f->r0 = MPU_BLOCKED_CALL_RESULT;
        f->pc = f->lr & ~1u;                           /* back to the caller */
        f->xpsr = (f->xpsr | XPSR_T) & ~(XPSR_IT_LO_MASK | XPSR_IT_HI_MASK);
        *mmfsr_reg = (uint8_t)(status & 0x81u);        /* w1c IACCVIOL, MMARVALID */
        return;
    }

    puts("MemManage: other");
    while (1) {
        __asm volatile ("" ::: "memory");
    }
}

/*
 * MemManage_Handler: EXC_RETURN bit 2 says which stack holds the frame
 * (0 = MSP, 1 = PSP). The C routine is called normally; popping the saved
 * EXC_RETURN into PC performs the exception return.
 */
__asm__(
    "    .syntax unified\n"
    "    .section .text.MemManage_Handler,\"ax\",%progbits\n"
    "    .global  MemManage_Handler\n"
    "    .type    MemManage_Handler, %function\n"
    "    .thumb\n"
    "    .thumb_func\n"
    "    .align   2\n"
    "MemManage_Handler:\n"
    "    mrs      r0, msp\n"
    "    tst      lr, #4\n"
    "    it       ne\n"
    "    mrsne    r0, psp\n"
    "    mov      r1, lr\n"
    "    push     {r4, lr}\n"
    "    bl       kx7_memfault\n"
    "    pop      {r4, pc}\n"
    "    .size    MemManage_Handler, .-MemManage_Handler\n"
    "    .text\n"
);
