/*
 * MPU setup and MemManage recovery for the KX-7 metering controller
 * (Cortex-M3, PMSAv7 MPU with eight regions).
 */
#include <stdint.h>
#include <stdio.h>
#include "mpu_guard.h"

#define SCB_SHCSR   (*(volatile uint32_t *)0xE000ED24UL)
#define SCB_CFSR    (*(volatile uint32_t *)0xE000ED28UL)
#define SCB_MMFAR   (*(volatile uint32_t *)0xE000ED34UL)
#define MPU_CTRL    (*(volatile uint32_t *)0xE000ED94UL)
#define MPU_RNR     (*(volatile uint32_t *)0xE000ED98UL)
#define MPU_RBAR    (*(volatile uint32_t *)0xE000ED9CUL)
#define MPU_RASR    (*(volatile uint32_t *)0xE000EDA0UL)

#define SHCSR_MEMFAULTENA (1u << 16)
#define MPU_CTRL_ENABLE   (1u << 0)

#define MMFSR_IACCVIOL  (1u << 0)
#define MMFSR_DACCVIOL  (1u << 1)
#define MMFSR_MMARVALID (1u << 7)

/* RASR fields */
#define RASR_XN          (1u << 28)
#define RASR_AP(x)       ((uint32_t)(x) << 24)
#define RASR_TEX(x)      ((uint32_t)(x) << 19)
#define RASR_S           (1u << 18)
#define RASR_C           (1u << 17)
#define RASR_B           (1u << 16)
#define RASR_SRD(x)      ((uint32_t)(x) << 8)
#define RASR_SIZE(log2)  ((uint32_t)((log2) - 1u) << 1)
#define RASR_ENABLE      1u

#define AP_NONE      0u
#define AP_PRIV_RW   1u
#define AP_FULL      3u
#define AP_RO        6u

static void region(uint32_t n, uint32_t base, uint32_t rasr)
{
	MPU_RNR = n;
	MPU_RBAR = base;
	MPU_RASR = rasr;
}

void mpu_setup(void)
{
	MPU_CTRL = 0u;
	/* 0: code flash, 4 MB, RO everywhere, executable, normal write-through */
	region(0u, CODE_BASE, RASR_AP(AP_RO) | RASR_TEX(0) | RASR_C | RASR_SIZE(22) | RASR_ENABLE);
	/* 1: SRAM, 4 MB, RW everywhere, XN, normal write-back write-allocate */
	region(1u, SRAM_BASE, RASR_XN | RASR_AP(AP_FULL) | RASR_TEX(1) | RASR_C | RASR_B |
			      RASR_SIZE(22) | RASR_ENABLE);
	/* 2: peripherals, 64 KB with the top two 8 KB subregions disabled (48 KB) */
	region(2u, PERIPH_BASE, RASR_XN | RASR_AP(AP_PRIV_RW) | RASR_B | RASR_SRD(0xC0u) |
				RASR_SIZE(16) | RASR_ENABLE);
	/* 3: stack guard, 1 KB, no access (above SRAM in priority) */
	region(3u, STACK_GUARD_BASE, RASR_XN | RASR_AP(AP_NONE) | RASR_SIZE(10) | RASR_ENABLE);
	for (uint32_t n = 4u; n < 8u; n++) {
		region(n, 0u, 0u);
	}
	SCB_SHCSR |= SHCSR_MEMFAULTENA;
	MPU_CTRL = MPU_CTRL_ENABLE;   /* PRIVDEFENA = 0, HFNMIENA = 0 */
	__asm volatile("dsb\n\tisb" ::: "memory");
}

/* Called with the exception frame: r0 r1 r2 r3 r12 lr pc xpsr */
void memmanage_handle(uint32_t *frame)
{
	uint32_t mmfsr = SCB_CFSR & 0xFFu;
	uint32_t mmfar = SCB_MMFAR;

	if (mmfsr & MMFSR_DACCVIOL) {
		if (mmfsr & MMFSR_MMARVALID) {
			printf("MemManage: DACCVIOL at 0x%08lX\n", (unsigned long)mmfar);
		} else {
			printf("MemManage: DACCVIOL at unknown\n");
		}
		uint16_t first = *(const volatile uint16_t *)(frame[6] & ~1u);
		uint32_t top = first >> 11;
		frame[6] += (top == 0x1Du || top == 0x1Eu || top == 0x1Fu) ? 4u : 2u;
	} else if (mmfsr & MMFSR_IACCVIOL) {
		printf("MemManage: IACCVIOL\n");
		frame[6] = frame[5] & ~1u;
		frame[0] = MPU_BLOCKED_CALL_RESULT;
	} else {
		printf("MemManage: other\n");
		for (;;) {
		}
	}
	SCB_CFSR = mmfsr;   /* write 1 to clear */
}

__attribute__((naked)) void MemManage_Handler(void)
{
	__asm volatile(
		"tst lr, #4\n\t"
		"ite eq\n\t"
		"mrseq r0, msp\n\t"
		"mrsne r0, psp\n\t"
		"b memmanage_handle\n\t");
}
