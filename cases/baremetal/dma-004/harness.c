/*
 * Hidden test bench for dma-004 (not shown to the model).
 *
 * Models the capture engine of pingpong.h with CMSDK timer0 (IRQ 8): every
 * 50 us the timer interrupt writes one sample into the answer's buffer and,
 * at the end of a half, calls dma_half_isr()/dma_full_isr(). The engine
 * stops by itself after a scripted number of halves.
 *
 * Script, one line on UART0:  "<halves> <wait> [<lose>]"
 *   wait 0: the main loop calls capture_process() back to back;
 *   wait k: after each capture_process() that returned true, the main loop
 *           is busy until k more halves have completed (slow consumer).
 *   lose b (b >= 1, optional): block b is lost while capture_process() is
 *           reading it. The main loop takes blocks 0 .. b-1 right after
 *           their callbacks, leaves block b alone until the engine is one
 *           sample short of completing block b+1, then calls
 *           capture_process(); an MPU region over the held half stalls the
 *           answer's first load from it (MemManage) until the engine's next
 *           interrupt has completed block b+1, so the block is lost after
 *           the answer took it and before it finished reading it. The same
 *           trap on block 0 first probes whether the answer reads with
 *           interrupts masked (PRIMASK: the fault escalates to HardFault);
 *           such an answer cannot be interrupted mid-read, so for it the
 *           main loop instead calls only after block b+1 has completed
 *           (block b then is lost before it is taken): either way a correct
 *           answer prints every block but b and counts one overrun.
 *           After block b the main loop polls back to back (wait ignored).
 * After the engine stops, capture_process() is called until it returns
 * false, then "overruns <n>" is printed and the program exits 0.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "pingpong.h"

#define UART0_DATA   (*(volatile uint32_t *)0x40004000UL)
#define UART0_STATE  (*(volatile uint32_t *)0x40004004UL)
#define UART0_CTRL   (*(volatile uint32_t *)0x40004008UL)
#define UART0_BAUD   (*(volatile uint32_t *)0x40004010UL)

#define T0_CTRL      (*(volatile uint32_t *)0x40000000UL)
#define T0_VALUE     (*(volatile uint32_t *)0x40000004UL)
#define T0_RELOAD    (*(volatile uint32_t *)0x40000008UL)
#define T0_INTCLR    (*(volatile uint32_t *)0x4000000CUL)
#define NVIC_ISER0   (*(volatile uint32_t *)0xE000E100UL)
#define NVIC_ICER0   (*(volatile uint32_t *)0xE000E180UL)

#define SCB_SHPR1    (*(volatile uint8_t *)0xE000ED18UL)   /* MemManage priority */
#define SCB_SHCSR    (*(volatile uint32_t *)0xE000ED24UL)
#define SCB_CFSR     (*(volatile uint32_t *)0xE000ED28UL)
#define SCB_HFSR     (*(volatile uint32_t *)0xE000ED2CUL)
#define MPU_CTRL     (*(volatile uint32_t *)0xE000ED94UL)
#define MPU_RNR      (*(volatile uint32_t *)0xE000ED98UL)
#define MPU_RBAR     (*(volatile uint32_t *)0xE000ED9CUL)
#define MPU_RASR     (*(volatile uint32_t *)0xE000EDA0UL)

static const uint16_t pattern[4][16] = {
	{3150, 265, 2124, 1687, 480, 1861, 963, 3679, 2444, 3785, 777, 1478, 1313, 2790, 2030, 3374},
	{2591, 1454, 3452, 3752, 2403, 3268, 3312, 2031, 2256, 1900, 208, 423, 240, 2948, 2535, 562},
	{2768, 2062, 2866, 3730, 3152, 1010, 2630, 3322, 3504, 2804, 1340, 3592, 2917, 1763, 3708, 2553},
	{1739, 2173, 1741, 3448, 1382, 1262, 1895, 1785, 2508, 153, 1129, 853, 3775, 2312, 1978, 2939},
};

static uint16_t *volatile dma_buf;
static volatile uint32_t dma_pos;        /* index in the buffer */
static volatile uint32_t dma_block;      /* block being written */
static volatile uint32_t halves_done;
static volatile uint32_t halves_limit;
static volatile int dma_running;
static volatile int dma_started;

/* Mid-read loss (script "lose"): MPU trap over the held half. */
enum { READ_UNKNOWN, READ_UNMASKED, READ_MASKED };
static volatile int trap_armed;
static volatile int trap_seen;            /* READ_* of the last trap */
static volatile uint32_t trap_until;      /* MemManage waits for this many halves */

static void sync_barrier(void)
{
	__asm__ volatile("dsb\n\tisb" : : : "memory");
}

/* Deny all access to the 32-byte MPU block (inside the buffer) that holds
 * the last sample of half 0 or the first sample of half 1. */
static void trap_arm(uint32_t half, uint32_t until)
{
	uintptr_t base = (uintptr_t)dma_buf + half * PP_HALF_SAMPLES * 2u;
	uintptr_t block = half == 0u ? ((base + 31u) & ~(uintptr_t)31u) : (base & ~(uintptr_t)31u);

	trap_until = until;
	trap_seen = READ_UNKNOWN;
	MPU_RNR = 0u;
	MPU_RBAR = (uint32_t)block;
	MPU_RASR = (1u << 28) | (0u << 24) | (4u << 1) | 1u;   /* XN, no access, 32 bytes */
	trap_armed = 1;
	MPU_CTRL = 1u | 4u;                                     /* enable, default map */
	sync_barrier();
}

static void trap_disarm(void)
{
	MPU_CTRL = 0u;
	trap_armed = 0;
	sync_barrier();
	SCB_CFSR = 0xFFu;   /* clear the MemManage status bits */
}

/* A load from the held half with interrupts enabled: the engine (higher
 * priority) completes the blocks the script asks for before the load goes on. */
void MemManage_Handler(void)
{
	if (!trap_armed) {
		printf("harness: memory fault\n");
		exit(4);
	}
	trap_disarm();
	trap_seen = READ_UNMASKED;
	while (dma_running && halves_done < trap_until) {
	}
}

/* The trap escalates here when the answer reads with PRIMASK set. */
void HardFault_Handler(void)
{
	if (!trap_armed || (SCB_HFSR & (1u << 30)) == 0u || (SCB_CFSR & 0xFFu) == 0u) {
		printf("harness: hard fault\n");
		exit(4);
	}
	trap_disarm();
	SCB_HFSR = 1u << 30;
	trap_seen = READ_MASKED;
}

void dma_start(uint16_t *buf, uint32_t half_len)
{
	if (dma_started || buf == NULL || half_len != PP_HALF_SAMPLES) {
		printf("harness: bad dma_start call\n");
		exit(3);
	}
	dma_started = 1;
	dma_buf = buf;
	dma_pos = 0;
	dma_block = 0;
	halves_done = 0;
	dma_running = 1;
	T0_CTRL = 0;
	T0_INTCLR = 1;
	T0_RELOAD = 25u * 50u - 1u;   /* 50 us at 25 MHz */
	NVIC_ISER0 = 1u << 8;
	T0_CTRL = 1u | 8u;           /* enable, interrupt enable */
}

void TIMER0_Handler(void)
{
	T0_INTCLR = 1;
	if (!dma_running) {
		return;
	}
	uint32_t pos = dma_pos;
	uint32_t b = dma_block;
	if (trap_armed) {
		MPU_CTRL = 0u;
		sync_barrier();
	}
	dma_buf[pos] = (uint16_t)(pattern[b % 4u][pos % PP_HALF_SAMPLES] + 5u * b);
	if (trap_armed) {
		MPU_CTRL = 1u | 4u;
		sync_barrier();
	}
	pos++;
	if (pos == PP_HALF_SAMPLES || pos == 2u * PP_HALF_SAMPLES) {
		dma_block = b + 1u;
		if (pos == 2u * PP_HALF_SAMPLES) {
			pos = 0;
		}
		dma_pos = pos;
		if (pos == PP_HALF_SAMPLES) {
			dma_half_isr();
		} else {
			dma_full_isr();
		}
		halves_done = halves_done + 1u;
		if (halves_done >= halves_limit) {
			dma_running = 0;
			T0_CTRL = 0;
			NVIC_ICER0 = 1u << 8;
		}
		return;
	}
	dma_pos = pos;
}

static int uart_getc(void)
{
	while ((UART0_STATE & 2u) == 0u) {
	}
	return (int)(UART0_DATA & 0xFFu);
}

static uint32_t read_uint(int *c)
{
	uint32_t v = 0;
	while (*c == ' ' || *c == '\t') {
		*c = uart_getc();
	}
	while (*c >= '0' && *c <= '9') {
		v = v * 10u + (uint32_t)(*c - '0');
		*c = uart_getc();
	}
	return v;
}

static void wait_halves(uint32_t n)
{
	while (dma_running && halves_done < n) {
	}
}

/* Script "lose b": see the header. */
static void lose_mid_read(uint32_t b)
{
	SCB_SHPR1 = 0x80u;             /* below timer0, so the engine runs in it */
	SCB_SHCSR |= 1u << 16;         /* MEMFAULTENA */

	wait_halves(1u);               /* probe on block 0 */
	trap_arm(0u, 0u);
	(void)capture_process();
	trap_disarm();
	int reader = trap_seen;

	for (uint32_t k = 1u; k < b; k++) {
		wait_halves(k + 1u);
		(void)capture_process();
	}
	wait_halves(b + 1u);           /* block b held; block b+1 being written */
	uint32_t last = ((b + 1u) % 2u) * PP_HALF_SAMPLES + PP_HALF_SAMPLES - 1u;
	while (dma_running && !(dma_block == b + 1u && dma_pos == last)) {
	}
	if (reader == READ_UNMASKED) {
		trap_arm(b % 2u, b + 2u);
		(void)capture_process();
		trap_disarm();
	} else {
		wait_halves(b + 2u);
		(void)capture_process();
	}
}

int main(void)
{
	UART0_BAUD = 16;
	UART0_CTRL = 3u;   /* TX and RX enable, no interrupts */
	/* QEMU hands console input over from its main loop, which a busy
	 * polling loop alone may leave asleep: the periodic dual-timer 2
	 * (100 us, interrupt off) keeps virtual-timer events coming, so the
	 * input never stalls on a loaded host. */
	*(volatile unsigned int *)0x40002020u = 2500u;	/* Timer2Load */
	*(volatile unsigned int *)0x40002028u = 0xC2u;	/* enable, periodic, 32-bit */

	int c = uart_getc();
	uint32_t halves = read_uint(&c);
	uint32_t wait = read_uint(&c);
	uint32_t lose = read_uint(&c);
	if (halves == 0u || halves > 40u || (lose != 0u && halves < lose + 3u)) {
		printf("harness: bad script\n");
		exit(2);
	}
	halves_limit = halves;

	capture_start();
	if (!dma_started) {
		printf("harness: capture_start did not call dma_start\n");
		exit(3);
	}
	if (lose != 0u) {
		lose_mid_read(lose);
		wait = 0u;
	}
	while (dma_running) {
		if (capture_process() && wait != 0u) {
			uint32_t target = halves_done + wait;
			while (dma_running && halves_done < target) {
			}
		}
	}
	for (int i = 0; i < 4 && capture_process(); i++) {
	}
	printf("overruns %lu\n", (unsigned long)capture_overruns());
	exit(0);
}
