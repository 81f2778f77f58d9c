/*
 * Board fixture of power-mgmt-005 (hidden test bench), linked with the
 * answer. board_init() runs before the C library is set up and reads one
 * script line from UART0:
 *
 *   windows <n> probe <0|1> values <v1> <v2> ...
 *
 * - board_sensor_read() returns v1, v2, ... cyclically; it busy-waits
 *   50 us (a slow bus read), counts calls made in handler mode (IPSR != 0)
 *   and the lag since the latest timer0 interrupt.
 * - board_window() prints the window line; after window <n> it prints the
 *   "done" line and exits.
 * - dual timer 1: free-running 25 MHz reference clock ("real").
 * - dual timer 2: periodic 100 us, no interrupt: keeps QEMU's main loop
 *   (console input) turning and bounds how far the -icount sleep=off clock
 *   jumps while the core sleeps.
 * - timer1 (IRQ 9, priority 0, above timer0's 0x80): the activity monitor,
 *   about every 1.03 ms. It looks at the interrupted code's return address
 *   and counts the sample as "asleep" when a WFI (0xBF30) sits in the 8
 *   bytes before it. With "probe 1" it also provokes the check-then-sleep
 *   race: when timer0 is about to fire it schedules a sample just before,
 *   spins until timer0 is a few clocks (swept from period to period) from
 *   firing and returns, so that timer0's interrupt lands in the first
 *   instructions the main loop runs after the wake-up; the sample after it
 *   is 3 ms later, so a period that was slept through shows as a lag of
 *   about 3 ms (the lag of read r is measured from timer0 interrupt r).
 * - a watchdog in the timer1 handler ends a run that stops making progress.
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
#define T0_CTRL       0x40000000u
#define T0_VALUE      0x40000004u
#define T1_CTRL       0x40001000u
#define T1_VALUE      0x40001004u
#define T1_RELOAD     0x40001008u
#define T1_INTCLEAR   0x4000100Cu
#define DT1_LOAD      0x40002000u
#define DT1_VALUE     0x40002004u
#define DT1_CTRL      0x40002008u
#define DT2_LOAD      0x40002020u
#define DT2_CTRL      0x40002028u
#define NVIC_ISER0    0xE000E100u
#define NVIC_IPR2     0xE000E408u

#define SAMPLE_TICKS  25750u        /* 1.03 ms */
#define MAXV          64u

extern void TIMER0_Handler(void);

/* set by board_init() before crt0 clears .bss: keep them in .data */
#define KEEP_DATA __attribute__((section(".data")))
static int32_t values[MAXV] KEEP_DATA;
static unsigned nvalues KEEP_DATA;
static unsigned windows_wanted KEEP_DATA;
static unsigned probe KEEP_DATA;

static volatile uint32_t periods, reads, isr_reads, max_lag_ticks;
static volatile uint32_t irq_ticks[64];   /* when timer0 interrupt p happened */
static volatile uint32_t samples, asleep;
static volatile uint32_t probe_k;
static volatile int probe_armed;
static uint32_t deadline_ms KEEP_DATA;
static volatile unsigned windows;

static uint32_t ticks(void)
{
	return 0xFFFFFFFFu - REG(DT1_VALUE);
}

static uint32_t real_ms(void)
{
	return ticks() / 25000u;
}

static long parse_long(const char **pp)
{
	const char *p = *pp;
	int neg = 0;
	long long v = 0;
	while (*p == ' ') {
		p++;
	}
	if (*p == '-') {
		neg = 1;
		p++;
	}
	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (*p - '0');
		p++;
	}
	*pp = p;
	return (long)(neg ? -v : v);
}

static int word(const char **pp, const char *w)
{
	const char *p = *pp;
	while (*p == ' ') {
		p++;
	}
	while (*w) {
		if (*p++ != *w++) {
			return 0;
		}
	}
	*pp = p;
	return 1;
}

void board_init(void)
{
	char line[1024];
	unsigned n = 0;

	REG(DT1_LOAD) = 0xFFFFFFFFu;
	REG(DT1_CTRL) = (1u << 7) | (1u << 1);             /* enable, 32-bit, free-running */
	REG(DT2_LOAD) = 2500u;
	REG(DT2_CTRL) = (1u << 7) | (1u << 6) | (1u << 1); /* enable, periodic, 32-bit, no irq */

	REG(UART0_BAUDDIV) = 217u;
	REG(UART0_CTRL) = 0x3u;
	for (;;) {
		while ((REG(UART0_STATE) & 0x2u) == 0u) {
		}
		char c = (char)(REG(UART0_DATA) & 0xFFu);
		if (c == '\n' || c == '\r') {
			if (n == 0u) {
				continue;
			}
			break;
		}
		if (n < sizeof(line) - 1u) {
			line[n++] = c;
		}
	}
	line[n] = '\0';

	const char *p = line;
	windows_wanted = 1u;
	if (word(&p, "windows")) {
		windows_wanted = (unsigned)parse_long(&p);
	}
	if (word(&p, "probe")) {
		probe = (unsigned)parse_long(&p);
	}
	if (word(&p, "values")) {
		for (;;) {
			while (*p == ' ') {
				p++;
			}
			if (*p == '\0' || nvalues == MAXV) {
				break;
			}
			values[nvalues++] = (int32_t)parse_long(&p);
		}
	}
	if (nvalues == 0u) {
		values[nvalues++] = 0;
	}
	deadline_ms = windows_wanted * 100u + 400u;

	/* restart the reference so that reading the line does not count */
	REG(DT1_LOAD) = 0xFFFFFFFFu;
	REG(NVIC_IPR2) = 0x00000080u;                       /* IRQ 8: 0x80, IRQ 9: 0x00 */
	REG(T1_VALUE) = SAMPLE_TICKS - 1u;
	REG(T1_RELOAD) = SAMPLE_TICKS - 1u;
	REG(T1_CTRL) = 0x9u;                                 /* enable, interrupt enable */
	REG(NVIC_ISER0) = 1u << 9;
}

void board_timer0_entry(void)
{
	irq_ticks[periods % 64u] = ticks();
	periods++;
	TIMER0_Handler();
}

__attribute__((naked)) void board_timer1_entry(void)
{
	__asm__ volatile(
		"tst lr, #4\n"
		"ite eq\n"
		"mrseq r0, msp\n"
		"mrsne r0, psp\n"
		"mov r1, lr\n"
		"b board_timer1_sample\n");
}

__attribute__((used)) void board_timer1_sample(const uint32_t *frame, uint32_t exc_return)
{
	uint32_t ret = frame[6] & ~1u;
	const volatile uint16_t *h = (const volatile uint16_t *)ret;
	int in_wfi = 0;
	uint32_t next = SAMPLE_TICKS;

	REG(T1_INTCLEAR) = 1u;
	if ((exc_return & 8u) != 0u && ret >= 8u && ret < 0x00400000u) {
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
	if (real_ms() > deadline_ms) {
		REG(T1_CTRL) = 0u;
		printf("board: no progress, %u of %u windows after %lu ms (periods %lu reads %lu)\n",
		       windows, windows_wanted, (unsigned long)real_ms(),
		       (unsigned long)periods, (unsigned long)reads);
		exit(1);
	}
	if (probe && (REG(T0_CTRL) & 1u) != 0u) {
		uint32_t v = REG(T0_VALUE);
		if (probe_armed) {
			uint32_t k = probe_k++;
			uint32_t x = 1u + (k % 24u);
			uint32_t j = (k / 24u) % 4u;
			probe_armed = 0;
			while (REG(T0_VALUE) > x && REG(T0_VALUE) < 2000u) {
			}
			for (uint32_t i = 0; i < j; i++) {
				__asm__ volatile("nop");
			}
			next = 75000u;
		} else if (v > 200u && v < SAMPLE_TICKS + 100u) {
			next = v - 100u;
			probe_armed = 1;
		}
	}
	REG(T1_VALUE) = next - 1u;
}

int32_t board_sensor_read(void)
{
	uint32_t ipsr;
	uint32_t now = ticks();

	__asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
	if ((ipsr & 0x1FFu) != 0u) {
		isr_reads++;
	}
	if (reads < periods && periods - reads <= 64u) {
		/* read r serves the r-th timer0 interrupt */
		uint32_t lag = now - irq_ticks[reads % 64u];
		if (lag > max_lag_ticks) {
			max_lag_ticks = lag;
		}
	}
	int32_t v = values[reads % nvalues];
	reads++;
	while (ticks() - now < 1250u) {        /* 50 us on the bus */
	}
	return v;
}

void board_window(uint32_t index, int32_t min, int32_t max, int32_t mean)
{
	uint32_t r = real_ms();

	windows++;
	printf("window %lu min %ld max %ld mean %ld at %lu ms\n", (unsigned long)index, (long)min,
	       (long)max, (long)mean, (unsigned long)r);
	if (windows >= windows_wanted) {
		REG(T1_CTRL) = 0u;
		printf("done windows %u periods %lu reads %lu isr_reads %lu max_lag %lu us asleep %lu/%lu\n",
		       windows, (unsigned long)periods, (unsigned long)reads, (unsigned long)isr_reads,
		       (unsigned long)(max_lag_ticks / 25u), (unsigned long)asleep, (unsigned long)samples);
		exit(0);
	}
}
