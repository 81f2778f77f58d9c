/*
 * Board fixture of power-mgmt-004 (hidden test bench), linked with the
 * answer. board_init() runs before the C library is set up:
 * - reads one line from UART0: "noise <us>": timer1 raises an interrupt
 *   every <us> microseconds (0: never). Its handler is the activity
 *   monitor: it looks at the interrupted code's return address and counts
 *   the sample as "asleep" when a WFI (0xBF30) sits in the 8 bytes before
 *   it (the core was halted in WFI, or had just left it with PRIMASK set).
 * - dual timer 1: free-running 32-bit reference clock (25 MHz) for "real".
 * - dual timer 2: periodic 100 us, no interrupt. It only bounds how far
 *   QEMU's -icount sleep=off clock jumps while the core sleeps (QEMU 7.2
 *   otherwise wakes a WFI at twice the distance to the next timer event).
 * board_systick_entry() counts SysTick exceptions and calls the answer's
 * SysTick_Handler().
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "board.h"

#define REG(a) (*(volatile uint32_t *)(a))

#define UART0_DATA    0x40004000u
#define UART0_STATE   0x40004004u
#define UART0_CTRL    0x40004008u
#define UART0_BAUDDIV 0x40004010u
#define T1_CTRL       0x40001000u
#define T1_RELOAD     0x40001008u
#define T1_INTCLEAR   0x4000100Cu
#define DT1_LOAD      0x40002000u
#define DT1_VALUE     0x40002004u
#define DT1_CTRL      0x40002008u
#define DT2_LOAD      0x40002020u
#define DT2_CTRL      0x40002028u
#define NVIC_ISER0    0xE000E100u

extern void SysTick_Handler(void);

static volatile uint32_t systick_count;
static volatile uint32_t samples, asleep;

static uint32_t real_ms(void)
{
	return (0xFFFFFFFFu - REG(DT1_VALUE)) / 25000u;
}

void board_init(void)
{
	char line[48];
	unsigned n = 0;
	uint32_t us = 0;

	/* reference clock first: "real" counts from here */
	REG(DT1_LOAD) = 0xFFFFFFFFu;
	REG(DT1_CTRL) = (1u << 7) | (1u << 1);          /* enable, 32-bit, free-running, /1 */
	REG(DT2_LOAD) = 2500u;
	REG(DT2_CTRL) = (1u << 7) | (1u << 6) | (1u << 1); /* enable, periodic, 32-bit, no irq */

	REG(UART0_BAUDDIV) = 217u;
	REG(UART0_CTRL) = 0x3u;
	for (;;) {
		while ((REG(UART0_STATE) & 0x2u) == 0u) {
		}
		char c = (char)(REG(UART0_DATA) & 0xFFu);
		if (c == '\n' || c == '\r') {
			break;
		}
		if (n < sizeof(line) - 1u) {
			line[n++] = c;
		}
	}
	line[n] = '\0';
	for (const char *p = line; *p; p++) {
		if (*p >= '0' && *p <= '9') {
			us = us * 10u + (uint32_t)(*p - '0');
		}
	}
	/* restart the reference so that reading the line does not count */
	REG(DT1_LOAD) = 0xFFFFFFFFu;
	if (us != 0u) {
		REG(T1_RELOAD) = us * 25u - 1u;
		REG(T1_CTRL) = 0x9u;                     /* enable, interrupt enable */
		REG(NVIC_ISER0) = 1u << 9;
	}
}

__attribute__((naked)) void board_timer1_entry(void)
{
	__asm__ volatile(
		"tst lr, #4\n"
		"ite eq\n"
		"mrseq r0, msp\n"
		"mrsne r0, psp\n"
		"b board_timer1_sample\n");
}

__attribute__((used)) void board_timer1_sample(const uint32_t *frame)
{
	uint32_t ret = frame[6] & ~1u;
	const volatile uint16_t *h = (const volatile uint16_t *)ret;
	int in_wfi = 0;

	REG(T1_INTCLEAR) = 1u;
	if (ret >= 8u && ret < 0x00400000u) {
		for (int k = 1; k <= 4; k++) {
			if (h[-k] == 0xBF30u) {
				in_wfi = 1;
			}
		}
	}
	samples++;
	if (in_wfi) {
		asleep++;
	}
}

void board_systick_entry(void)
{
	systick_count++;
	SysTick_Handler();
}

void board_event(unsigned id, uint32_t tick_ms)
{
	printf("event %u tick %lu real %lu\n", id, (unsigned long)tick_ms, (unsigned long)real_ms());
}

void board_done(uint32_t tick_ms)
{
	uint32_t r = real_ms();
	REG(T1_CTRL) = 0u;
	printf("done tick %lu real %lu systick %lu asleep %lu/%lu\n", (unsigned long)tick_ms,
	       (unsigned long)r, (unsigned long)systick_count, (unsigned long)asleep,
	       (unsigned long)samples);
	exit(0);
}
