/* KX-7 MPU: regions written through RBAR.VALID/REGION, the 48 KB
 * peripheral window as a 32 KB + 16 KB pair, and outer/inner attribute
 * encodings (TEX = 1xx). */
#include <stdint.h>
#include <stdio.h>
#include "mpu_guard.h"

typedef struct {
	volatile uint32_t TYPE, CTRL, RNR, RBAR, RASR;
} mpu_regs_t;

#define MPU       ((mpu_regs_t *)0xE000ED90u)
#define SHCSR     (*(volatile uint32_t *)0xE000ED24u)
#define CFSR_MM   (*(volatile uint8_t *)0xE000ED28u)
#define MMFAR     (*(volatile uint32_t *)0xE000ED34u)

enum { AP_NO = 0, AP_PRW = 1, AP_RW = 3, AP_RO_ALL = 7 };

static uint32_t log2u(uint32_t v)
{
	uint32_t n = 0;
	while (v > 1u) {
		v >>= 1;
		n++;
	}
	return n;
}

static uint32_t attrs(uint32_t xn, uint32_t ap, uint32_t tex, uint32_t c, uint32_t b, uint32_t size)
{
	return (xn << 28) | (ap << 24) | (tex << 19) | (c << 17) | (b << 16) | ((log2u(size) - 1u) << 1) | 1u;
}

static const struct {
	uint32_t base, rasr;
} map[] = {
	/* outer+inner write-through no-allocate: TEX=0b110, C=1, B=0 */
	{CODE_BASE, 0},
	{SRAM_BASE, 0},
	{PERIPH_BASE, 0},
	{PERIPH_BASE + 0x8000u, 0},
	{STACK_GUARD_BASE, 0},
};

void mpu_setup(void)
{
	uint32_t rasr[5];
	rasr[0] = attrs(0, AP_RO_ALL, 6, 1, 0, CODE_SIZE);
	rasr[1] = attrs(1, AP_RW, 5, 0, 1, SRAM_SIZE);      /* outer WB-WA, inner WB-WA */
	rasr[2] = attrs(1, AP_PRW, 0, 0, 1, 0x8000u) | (1u << 18);
	rasr[3] = attrs(1, AP_PRW, 0, 0, 1, 0x4000u) | (1u << 18);
	rasr[4] = attrs(1, AP_NO, 0, 0, 0, STACK_GUARD_SIZE);

	for (uint32_t r = 0; r < 8u; r++) {
		MPU->RNR = r;
		MPU->RASR = 0u;
	}
	for (uint32_t r = 0; r < sizeof map / sizeof map[0]; r++) {
		MPU->RBAR = map[r].base | (1u << 4) | r;
		MPU->RASR = rasr[r];
	}
	SHCSR |= 1u << 16;
	MPU->CTRL = 1u;
	__asm__ __volatile__("dsb sy" ::: "memory");
	__asm__ __volatile__("isb sy" ::: "memory");
}

static int thumb32(uint16_t hw)
{
	return (hw & 0xE000u) == 0xE000u && (hw & 0x1800u) != 0u;
}

static void __attribute__((used)) on_memfault(uint32_t *sf)
{
	uint8_t st = CFSR_MM;
	uint32_t far = MMFAR;

	if (st & 0x02u) {
		if (st & 0x80u)
			printf("MemManage: DACCVIOL at 0x%08lX\n", (unsigned long)far);
		else
			printf("MemManage: DACCVIOL at unknown\n");
		sf[6] += thumb32(*(volatile uint16_t *)sf[6]) ? 4u : 2u;
		CFSR_MM = st;
		return;
	}
	if (st & 0x01u) {
		puts("MemManage: IACCVIOL");
		sf[0] = MPU_BLOCKED_CALL_RESULT;
		sf[6] = sf[5] & ~1u;
		CFSR_MM = st;
		return;
	}
	puts("MemManage: other");
	for (;;) {
	}
}

__attribute__((naked)) void MemManage_Handler(void)
{
	__asm__ volatile(
		"mrs r0, msp\n"
		"tst lr, #4\n"
		"beq 1f\n"
		"mrs r0, psp\n"
		"1:\n"
		"push {r4, lr}\n"
		"bl on_memfault\n"
		"pop {r4, pc}\n");
}
