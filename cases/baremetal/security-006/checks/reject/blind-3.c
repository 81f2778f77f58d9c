/* defect: the handler always takes the exception frame from MSP, so a fault raised while the
 *         thread runs on PSP patches the wrong memory and never recovers the interrupted code.
 * breaks: "The interrupted code may have been running on the main or on the process stack; find its exception frame on the stack it was using."
 * must_fail: scenario_process_stack_faults
 */
/*
 * main.c (mpu part) - MPU lock-down and MemManage recovery for the KX-7
 * metering controller (Cortex-M3, ARMv7-M PMSAv7).
 */
#include <stdint.h>
#include <stdio.h>
#include <inttypes.h>
#include "mpu_guard.h"

/* ---- System Control Block ------------------------------------------- */
#define SCB_SHCSR   (*(volatile uint32_t *)0xE000ED24u)
#define SCB_CFSR    (*(volatile uint32_t *)0xE000ED28u)
#define SCB_MMFAR   (*(volatile uint32_t *)0xE000ED34u)

#define SHCSR_MEMFAULTENA   (1u << 16)

/* MMFSR = CFSR[7:0] */
#define MMFSR_IACCVIOL   (1u << 0)
#define MMFSR_DACCVIOL   (1u << 1)
#define MMFSR_MUNSTKERR  (1u << 3)
#define MMFSR_MSTKERR    (1u << 4)
#define MMFSR_MMARVALID  (1u << 7)

/* ---- MPU --------------------------------------------------------------- */
#define MPU_TYPE    (*(volatile uint32_t *)0xE000ED90u)
#define MPU_CTRL    (*(volatile uint32_t *)0xE000ED94u)
#define MPU_RNR     (*(volatile uint32_t *)0xE000ED98u)
#define MPU_RBAR    (*(volatile uint32_t *)0xE000ED9Cu)
#define MPU_RASR    (*(volatile uint32_t *)0xE000EDA0u)

#define MPU_CTRL_ENABLE      (1u << 0)
#define MPU_CTRL_HFNMIENA    (1u << 1)
#define MPU_CTRL_PRIVDEFENA  (1u << 2)

#define MPU_NUM_REGIONS      8u

/* RASR fields */
#define RASR_ENABLE          (1u << 0)
#define RASR_SIZE(log2sz)    ((uint32_t)((log2sz) - 1u) << 1)
#define RASR_SRD(mask)       ((uint32_t)(mask) << 8)
#define RASR_B               (1u << 16)
#define RASR_C               (1u << 17)
#define RASR_S               (1u << 18)
#define RASR_TEX(t)          ((uint32_t)(t) << 19)
#define RASR_AP(ap)          ((uint32_t)(ap) << 24)
#define RASR_XN              (1u << 28)

/* AP encodings */
#define AP_NO_ACCESS         0u   /* priv none, unpriv none */
#define AP_PRIV_RW           1u   /* priv RW,   unpriv none */
#define AP_FULL_RW           3u   /* priv RW,   unpriv RW   */
#define AP_RO_RO             6u   /* priv RO,   unpriv RO   */

/* Memory types (TEX, C, B, S) */
#define MEM_NORMAL_WT_NWA    (RASR_TEX(0) | RASR_C)              /* not shareable */
#define MEM_NORMAL_WB_RWA    (RASR_TEX(1) | RASR_C | RASR_B)     /* not shareable */
#define MEM_DEVICE_SHARED    (RASR_TEX(0) | RASR_B | RASR_S)
#define MEM_STRONGLY_ORDERED (RASR_TEX(0))

/* Region numbers: a higher number takes precedence where regions overlap. */
#define REGION_CODE          0u
#define REGION_SRAM          1u
#define REGION_PERIPH        2u
#define REGION_STACK_GUARD   3u   /* must be above REGION_SRAM */

static void mpu_region_set(uint32_t number, uint32_t base, uint32_t rasr)
{
    MPU_RNR  = number;
    MPU_RBAR = base;      /* VALID = 0: region selected by RNR */
    MPU_RASR = rasr;
}

static void mpu_region_disable(uint32_t number)
{
    MPU_RNR  = number;
    MPU_RASR = 0u;        /* ENABLE = 0 */
    MPU_RBAR = 0u;
}

void mpu_setup(void)
{
    uint32_t i;

    /* Make sure the MPU is off while the regions are being rewritten. */
    MPU_CTRL = 0u;
    __asm volatile ("dsb\n\tisb" ::: "memory");

    /* Wipe every region the bootloader left behind. */
    for (i = 0u; i < MPU_NUM_REGIONS; i++) {
        mpu_region_disable(i);
    }

    /* Code flash: 4 MB, RO/RO, executable, Normal WT no-WA, non-shareable. */
    mpu_region_set(REGION_CODE, CODE_BASE,
                   RASR_AP(AP_RO_RO) | MEM_NORMAL_WT_NWA |
                   RASR_SIZE(22u) | RASR_ENABLE);

    /* SRAM: 4 MB, RW/RW, XN, Normal WB read/write-allocate, non-shareable. */
    mpu_region_set(REGION_SRAM, SRAM_BASE,
                   RASR_XN | RASR_AP(AP_FULL_RW) | MEM_NORMAL_WB_RWA |
                   RASR_SIZE(22u) | RASR_ENABLE);

    /* Peripherals: 48 KB window = 64 KB region with the top two 8 KB
     * subregions (6 and 7: 0x4000C000..0x4000FFFF) disabled.
     * Privileged RW, unprivileged none, XN, Device shareable. */
    mpu_region_set(REGION_PERIPH, PERIPH_BASE,
                   RASR_XN | RASR_AP(AP_PRIV_RW) | MEM_DEVICE_SHARED |
                   RASR_SRD(0xC0u) | RASR_SIZE(16u) | RASR_ENABLE);

    /* Stack guard: 1 KB, no access at all, XN; overrides the SRAM region. */
    mpu_region_set(REGION_STACK_GUARD, STACK_GUARD_BASE,
                   RASR_XN | RASR_AP(AP_NO_ACCESS) | MEM_STRONGLY_ORDERED |
                   RASR_SIZE(10u) | RASR_ENABLE);

    /* Enable the MemManage exception, then the MPU without background
     * region (PRIVDEFENA = 0) and off in HardFault/NMI (HFNMIENA = 0). */
    SCB_SHCSR |= SHCSR_MEMFAULTENA;
    MPU_CTRL = MPU_CTRL_ENABLE;

    __asm volatile ("dsb\n\tisb" ::: "memory");
}

/* ---- MemManage handler --------------------------------------------- */

/* Exception frame layout (basic frame, no FP on Cortex-M3). */
enum { FR_R0 = 0, FR_R1, FR_R2, FR_R3, FR_R12, FR_LR, FR_PC, FR_XPSR };

/* Length in bytes of the Thumb instruction at addr. */
static uint32_t thumb_insn_length(uint32_t addr)
{
    uint16_t hw = *(const volatile uint16_t *)addr;
    uint32_t top5 = (uint32_t)hw >> 11;

    /* 0b11101, 0b11110, 0b11111 start a 32-bit instruction. */
    return (top5 >= 0x1Du) ? 4u : 2u;
}

/* If the skipped instruction sat in an IT block, step the IT state as the
 * core would have done had the instruction completed.
 * IT[1:0] = xPSR[26:25], IT[7:2] = xPSR[15:10]. */
static uint32_t it_state_advance(uint32_t xpsr)
{
    uint32_t it = ((xpsr >> 25) & 0x3u) | (((xpsr >> 10) & 0x3Fu) << 2);

    if (it == 0u) {
        return xpsr;
    }
    if ((it & 0x7u) == 0u) {
        it = 0u;                                  /* last instruction of the block */
    } else {
        it = (it & 0xE0u) | ((it << 1) & 0x1Fu);  /* shift IT[4:0] left */
    }
    xpsr &= ~((0x3u << 25) | (0x3Fu << 10));
    xpsr |= ((it & 0x3u) << 25) | (((it >> 2) & 0x3Fu) << 10);
    return xpsr;
}

void memmanage_dispatch(uint32_t *frame);

__attribute__((used)) void memmanage_dispatch(uint32_t *frame)
{
    uint32_t mmfsr = SCB_CFSR & 0xFFu;
    uint32_t mmfar = SCB_MMFAR;

    if (mmfsr & MMFSR_DACCVIOL) {
        if (mmfsr & MMFSR_MMARVALID) {
            printf("MemManage: DACCVIOL at 0x%08" PRIX32 "\n", mmfar);
        } else {
            printf("MemManage: DACCVIOL at unknown\n");
        }
        /* Skip the faulting load/store. */
        frame[FR_PC] += thumb_insn_length(frame[FR_PC]);
        frame[FR_XPSR] = it_state_advance(frame[FR_XPSR]);
        SCB_CFSR = mmfsr & (MMFSR_DACCVIOL | MMFSR_MMARVALID);
    } else if (mmfsr & MMFSR_IACCVIOL) {
        printf("MemManage: IACCVIOL\n");
        /* Return from the blocked call to its caller. */
        frame[FR_R0]   = MPU_BLOCKED_CALL_RESULT;
        frame[FR_PC]   = frame[FR_LR] & ~1u;
        frame[FR_XPSR] |= (1u << 24);   /* keep the Thumb bit */
        SCB_CFSR = mmfsr & (MMFSR_IACCVIOL | MMFSR_MMARVALID);
    } else {
        printf("MemManage: other\n");
        for (;;) {
        }
    }
    __asm volatile ("dsb" ::: "memory");
}

/* Hand the exception frame to the C part. The C part is tail-called, so
 * its return performs the exception return with LR = EXC_RETURN. */
__attribute__((naked)) void MemManage_Handler(void)
{
    __asm volatile (
        "mrs   r0, msp             \n"
        "b     memmanage_dispatch \n"
    );
}
