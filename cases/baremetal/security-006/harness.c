/*
 * Hidden test bench for security-006 (not shown to the model).
 *
 * Before mpu_setup() it plays the bootloader that left all eight MPU
 * regions programmed (stale regions), then calls mpu_setup(), prints the
 * MPU control state and runs the probes of a script read from UART0, one
 * line of tokens:
 *   r16:ADDR / w16:ADDR   16-bit LDR/STR at ADDR         -> "probe T: step N"
 *   r32:ADDR / w32:ADDR   32-bit LDR.W/STR.W at ADDR     -> "probe T: step N"
 *   pr16/pw16/pr32/pw32   the same, run on the process stack (PSP)
 *   xram / xcode / xperiph  call code in SRAM / flash / the peripheral window
 *   pxram                 xram on the process stack
 *                          -> "probe T: returned 0xXXXXXXXX"
 *   attr:ADDR             effective region of ADDR, decoded from the MPU
 * Every access probe counts the instructions after the faulting one
 * (step 1 when the handler resumed exactly after it; 0 when it skipped too
 * much; 17 when it skipped only the first half of a 32-bit one). A probe
 * that leaves MMFSR bits set gets " mmfsr=0x.." appended. A timer0
 * watchdog ends a probe that does not finish within 20 ms.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpu_guard.h"

#define UART0_DATA   (*(volatile uint32_t *)0x40004000UL)
#define UART0_STATE  (*(volatile uint32_t *)0x40004004UL)
#define UART0_CTRL   (*(volatile uint32_t *)0x40004008UL)
#define UART0_BAUD   (*(volatile uint32_t *)0x40004010UL)

#define T0_CTRL      (*(volatile uint32_t *)0x40000000UL)
#define T0_RELOAD    (*(volatile uint32_t *)0x40000008UL)
#define T0_INTCLR    (*(volatile uint32_t *)0x4000000CUL)
#define NVIC_ISER0   (*(volatile uint32_t *)0xE000E100UL)
#define NVIC_IPR8    (*(volatile uint8_t *)0xE000E408UL)

#define SCB_SHPR1_MM (*(volatile uint8_t *)0xE000ED18UL)
#define SCB_SHCSR    (*(volatile uint32_t *)0xE000ED24UL)
#define SCB_CFSR     (*(volatile uint32_t *)0xE000ED28UL)
#define SCB_HFSR     (*(volatile uint32_t *)0xE000ED2CUL)
#define MPU_CTRL     (*(volatile uint32_t *)0xE000ED94UL)
#define MPU_RNR      (*(volatile uint32_t *)0xE000ED98UL)
#define MPU_RBAR     (*(volatile uint32_t *)0xE000ED9CUL)
#define MPU_RASR     (*(volatile uint32_t *)0xE000EDA0UL)

static volatile uint32_t probe_ticks;
static volatile int probe_active;
static const char *volatile probe_name;

static uint32_t psp_stack[256] __attribute__((aligned(8)));
static uint16_t ram_fn[4] __attribute__((aligned(8)));

/* ---- probes (the exact encodings matter: see the header) ---- */
__attribute__((naked, noinline)) static uint32_t probe_w16(__attribute__((unused)) uint32_t a)
{
	__asm volatile(
		"movs r1, #0x5A\n\t"
		"movs r2, #0\n\t"
		"str r1, [r0]\n\t"
		"adds r2, #1\n\t"
		"mov r0, r2\n\t"
		"bx lr\n\t");
}

__attribute__((naked, noinline)) static uint32_t probe_r16(__attribute__((unused)) uint32_t a)
{
	__asm volatile(
		"movs r2, #0\n\t"
		"ldr r3, [r0]\n\t"
		"adds r2, #1\n\t"
		"mov r0, r2\n\t"
		"bx lr\n\t");
}

/* STR.W r3, [r0, #0x210] is F8C0 3210; its second halfword alone reads as
 * "adds r2, #0x10". */
__attribute__((naked, noinline)) static uint32_t probe_w32(__attribute__((unused)) uint32_t a)
{
	__asm volatile(
		"sub r0, r0, #0x210\n\t"
		"movs r3, #0xA5\n\t"
		"movs r2, #0\n\t"
		"str.w r3, [r0, #0x210]\n\t"
		"adds r2, #1\n\t"
		"mov r0, r2\n\t"
		"bx lr\n\t");
}

__attribute__((naked, noinline)) static uint32_t probe_r32(__attribute__((unused)) uint32_t a)
{
	__asm volatile(
		"sub r0, r0, #0x210\n\t"
		"movs r2, #0\n\t"
		"ldr.w r3, [r0, #0x210]\n\t"
		"adds r2, #1\n\t"
		"mov r0, r2\n\t"
		"bx lr\n\t");
}

/* Call the Thumb code at a (bit 0 added). */
__attribute__((naked, noinline)) static uint32_t call_at(__attribute__((unused)) uint32_t a)
{
	__asm volatile(
		"push {r4, lr}\n\t"
		"orr r0, r0, #1\n\t"
		"blx r0\n\t"
		"pop {r4, pc}\n\t");
}

/* fn(a) on the process stack (CONTROL.SPSEL = 1), back on MSP after. */
__attribute__((naked, noinline)) static uint32_t on_psp(__attribute__((unused)) uint32_t (*fn)(uint32_t), __attribute__((unused)) uint32_t a, __attribute__((unused)) uint32_t top)
{
	__asm volatile(
		"push {r4, r5, r6, lr}\n\t"
		"mov r4, r0\n\t"
		"mov r0, r1\n\t"
		"msr psp, r2\n\t"
		"mrs r5, control\n\t"
		"orr r3, r5, #2\n\t"
		"msr control, r3\n\t"
		"isb\n\t"
		"blx r4\n\t"
		"msr control, r5\n\t"
		"isb\n\t"
		"pop {r4, r5, r6, pc}\n\t");
}

__attribute__((noinline)) static uint32_t code_fn(void)
{
	return 42u;
}

void HardFault_Handler(void)
{
	printf("harness: hard fault CFSR=0x%08lX HFSR=0x%08lX MMFAR=0x%08lX\n",
	       (unsigned long)SCB_CFSR, (unsigned long)SCB_HFSR,
	       (unsigned long)*(volatile uint32_t *)0xE000ED34UL);
	exit(4);
}

void TIMER0_Handler(void)
{
	T0_INTCLR = 1u;
	if (probe_active && ++probe_ticks > 20u) {
		printf("harness: probe %s did not finish\n", probe_name);
		exit(5);
	}
}

static int uart_getc(void)
{
	while ((UART0_STATE & 2u) == 0u) {
	}
	return (int)(UART0_DATA & 0xFFu);
}

static void stale_regions(void)
{
	static const uint32_t rbar[8] = {
		0x4000E000u, 0x4000C000u, 0x00000000u, 0x20200000u,
		0x203F0000u, 0x20000000u, 0x4000C000u, 0x20200000u,
	};
	static const uint32_t rasr[8] = {
		(1u << 28) | (3u << 24) | (1u << 16) | (12u << 1) | 1u,   /* 8 KB RW XN device */
		(1u << 28) | (3u << 24) | (1u << 16) | (12u << 1) | 1u,   /* 8 KB RW XN device */
		(3u << 24) | (1u << 17) | (21u << 1) | 1u,               /* 4 MB RW exec */
		(1u << 28) | (0u << 24) | (15u << 1) | 1u,               /* 64 KB none */
		(1u << 28) | (0u << 24) | (14u << 1) | 1u,               /* 32 KB none */
		(3u << 24) | (1u << 17) | (1u << 16) | (17u << 1) | 1u,  /* 256 KB RW exec */
		(1u << 28) | (3u << 24) | (1u << 16) | (13u << 1) | 1u,  /* 16 KB RW XN */
		(1u << 28) | (0u << 24) | (15u << 1) | 1u,               /* 64 KB none */
	};
	MPU_CTRL = 0u;
	for (uint32_t n = 0; n < 8u; n++) {
		MPU_RNR = n;
		MPU_RBAR = rbar[n];
		MPU_RASR = rasr[n];
	}
	__asm volatile("dsb\n\tisb" ::: "memory");
}

static const char *ap_priv[8] = {"none", "rw", "rw", "rw", "?", "ro", "ro", "ro"};
static const char *ap_user[8] = {"none", "none", "ro", "rw", "?", "none", "ro", "ro"};

static void print_attr(uint32_t addr)
{
	int hit = -1;
	uint32_t rasr = 0;
	for (int n = 7; n >= 0 && hit < 0; n--) {
		MPU_RNR = (uint32_t)n;
		uint32_t b = MPU_RBAR & ~0x1Fu;
		uint32_t r = MPU_RASR;
		if ((r & 1u) == 0u) {
			continue;
		}
		uint32_t sz = (r >> 1) & 0x1Fu;
		if (sz < 4u) {
			continue;
		}
		uint64_t size = 1ull << (sz + 1u);
		uint64_t base = b & ~(uint32_t)(size - 1u);
		if ((uint64_t)addr < base || (uint64_t)addr >= base + size) {
			continue;
		}
		if (size >= 256u) {
			uint32_t sub = (uint32_t)((addr - base) / (size / 8u));
			if ((r >> 8) & (1u << sub)) {
				continue;
			}
		}
		hit = n;
		rasr = r;
	}
	if (hit < 0) {
		printf("attr 0x%08lX: none\n", (unsigned long)addr);
		return;
	}
	uint32_t ap = (rasr >> 24) & 7u, xn = (rasr >> 28) & 1u;
	uint32_t tex = (rasr >> 19) & 7u, s = (rasr >> 18) & 1u, cb = (rasr >> 16) & 3u;
	char type[32];
	if (tex == 0u && cb == 0u) {
		strcpy(type, "strongly-ordered");
	} else if (tex == 0u && cb == 1u) {
		strcpy(type, "device-shareable");
	} else if (tex == 2u && cb == 0u) {
		strcpy(type, "device-nonshareable");
	} else if ((tex == 0u && cb >= 2u) || (tex == 1u && (cb == 0u || cb == 3u)) ||
		   (tex >= 4u && (tex & 3u) == cb)) {
		/* policy: 0 non-cacheable, 1 write-back write-allocate,
		 * 2 write-through, 3 write-back no write-allocate */
		static const char *pol[4] = {"normal-nc", "normal-wb-wa", "normal-wt", "normal-wb"};
		uint32_t p;
		if (tex >= 4u) {
			p = cb;                 /* inner policy == outer policy here */
		} else if (tex == 1u) {
			p = cb == 0u ? 0u : 1u;
		} else {
			p = cb == 2u ? 2u : 3u;
		}
		snprintf(type, sizeof type, "%s s=%lu", pol[p], (unsigned long)s);
	} else {
		snprintf(type, sizeof type, "tex=%lu cb=%lu s=%lu", (unsigned long)tex, (unsigned long)cb, (unsigned long)s);
	}
	printf("attr 0x%08lX: priv=%s user=%s xn=%lu type=%s\n", (unsigned long)addr,
	       ap_priv[ap], ap_user[ap], (unsigned long)xn, type);
}

static void finish_probe(const char *tok, const char *what, uint32_t v)
{
	probe_active = 0;
	uint32_t mm = SCB_CFSR & 0xFFu;
	if (mm != 0u) {
		printf("probe %s: %s %lu mmfsr=0x%02lX\n", tok, what, (unsigned long)v, (unsigned long)mm);
		SCB_CFSR = mm;
	} else if (what[0] == 'r') {
		printf("probe %s: returned 0x%08lX\n", tok, (unsigned long)v);
	} else {
		printf("probe %s: step %lu\n", tok, (unsigned long)v);
	}
}

static void run_token(const char *tok)
{
	const char *colon = strchr(tok, ':');
	uint32_t addr = colon ? (uint32_t)strtoul(colon + 1, NULL, 16) : 0u;
	size_t klen = colon ? (size_t)(colon - tok) : strlen(tok);
	char kind[8];
	if (klen >= sizeof kind) {
		printf("harness: bad token %s\n", tok);
		exit(2);
	}
	memcpy(kind, tok, klen);
	kind[klen] = '\0';

	if (strcmp(kind, "attr") == 0) {
		print_attr(addr);
		return;
	}
	uint32_t (*fn)(uint32_t) = NULL;
	int psp = kind[0] == 'p';
	const char *k = psp ? kind + 1 : kind;
	if (strcmp(k, "r16") == 0) fn = probe_r16;
	else if (strcmp(k, "w16") == 0) fn = probe_w16;
	else if (strcmp(k, "r32") == 0) fn = probe_r32;
	else if (strcmp(k, "w32") == 0) fn = probe_w32;

	probe_name = tok;
	probe_ticks = 0u;
	probe_active = 1;
	if (fn != NULL && colon != NULL) {
		uint32_t v = psp ? on_psp(fn, addr, (uint32_t)&psp_stack[256]) : fn(addr);
		finish_probe(tok, "step", v);
	} else if (strcmp(kind, "pxram") == 0) {
		finish_probe(tok, "returned", on_psp(call_at, (uint32_t)ram_fn, (uint32_t)&psp_stack[256]));
	} else if (strcmp(kind, "xram") == 0) {
		finish_probe(tok, "returned", call_at((uint32_t)ram_fn));
	} else if (strcmp(kind, "xcode") == 0) {
		finish_probe(tok, "returned", call_at((uint32_t)code_fn));
	} else if (strcmp(kind, "xperiph") == 0) {
		finish_probe(tok, "returned", call_at(0x40000000u));
	} else {
		printf("harness: bad token %s\n", tok);
		exit(2);
	}
}

int main(void)
{
	static char line[512];
	uint32_t n = 0;

	UART0_BAUD = 16;
	UART0_CTRL = 3u;
	*(volatile unsigned int *)0x40002020u = 2500u;	/* dual timer 2: keeps QEMU's input flowing */
	*(volatile unsigned int *)0x40002028u = 0xC2u;
	for (;;) {
		int c = uart_getc();
		if (c == '\n' || c == '\r') {
			if (n == 0u) {
				continue;
			}
			break;
		}
		if (n + 1u < sizeof line) {
			line[n++] = (char)c;
		}
	}
	line[n] = '\0';

	ram_fn[0] = 0x202Au;   /* movs r0, #42 */
	ram_fn[1] = 0x4770u;   /* bx lr */
	__asm volatile("dsb\n\tisb" ::: "memory");
	printf("harness: start\n");   /* first semihosting call before the MPU is on */

	stale_regions();
	mpu_setup();
	printf("mpu: ctrl=0x%lX memfault=%lu\n", (unsigned long)(MPU_CTRL & 7u),
	       (unsigned long)((SCB_SHCSR >> 16) & 1u));

	SCB_SHPR1_MM = 0x80u;      /* below the watchdog */
	NVIC_IPR8 = 0x00u;
	T0_CTRL = 0u;
	T0_INTCLR = 1u;
	T0_RELOAD = 25000u - 1u;   /* 1 ms */
	NVIC_ISER0 = 1u << 8;
	T0_CTRL = 1u | 8u;

	for (char *tok = strtok(line, " \t"); tok != NULL; tok = strtok(NULL, " \t")) {
		run_token(tok);
	}
	printf("done\n");
	exit(0);
}
