/*
 * Hidden test bench of isr-concurrency-006, linked with the answer.
 * main() calls flow_init(), prints the priority bytes of IRQ 8 and 9, then reads a script from UART0, one command a
 * line:
 *   feed <v> <v> ...  calls flow_sample_isr(v) for each value (timers off)
 *   take              calls flow_take() and prints the snapshot
 *   stress <n>        timer0 (IRQ 8, the latency probe, every 8 us) and
 *                     timer1 (IRQ 9, a pseudo-random sample every 12.44 us)
 *                     run while main calls flow_take() n times with random
 *                     gaps; every 4th call is made with BASEPRI already at
 *                     0x80. Each snapshot is checked against the samples
 *                     actually produced (contiguous, exact sum/min/max/bins);
 *                     after the last call the timers stop, a final take
 *                     collects the rest and the bench prints what it saw.
 *   end               prints "end" and exits 0
 * Dual timer 2 runs periodic without interrupt as the QEMU input keep-alive.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "flowstats.h"

#define REG(a) (*(volatile uint32_t *)(a))

#define UART0_DATA   0x40004000u
#define UART0_STATE  0x40004004u
#define UART0_CTRL   0x40004008u
#define UART0_BAUD   0x40004010u
#define T0_CTRL      0x40000000u
#define T0_VALUE     0x40000004u
#define T0_RELOAD    0x40000008u
#define T0_INTCLR    0x4000000Cu
#define T1_CTRL      0x40001000u
#define T1_RELOAD    0x40001008u
#define T1_INTCLR    0x4000100Cu
#define DT2_LOAD     0x40002020u
#define DT2_CTRL     0x40002028u
#define NVIC_ISER0   0xE000E100u
#define NVIC_ICER0   0xE000E180u
#define NVIC_ICPR0   0xE000E280u

#define T0_PERIOD    200u   /* 8 us */
#define T1_PERIOD    311u   /* 12.44 us */
#define RING         4096u

static uint16_t ring[RING];
static volatile uint32_t given;
static volatile uint32_t lat_max, fast_irqs;
static uint32_t lcg = 12345u;

static uint32_t rnd(void)
{
	lcg = lcg * 1103515245u + 12345u;
	return lcg >> 8;
}

void bench_timer0_irq(void)
{
	uint32_t v = REG(T0_VALUE);
	uint32_t lat = (T0_PERIOD - 1u) - v;

	REG(T0_INTCLR) = 1u;
	if (lat < T0_PERIOD && lat > lat_max) {
		lat_max = lat;
	}
	fast_irqs++;
}

static uint32_t irq_lcg = 987654321u;

void bench_timer1_irq(void)
{
	uint16_t s;

	REG(T1_INTCLR) = 1u;
	irq_lcg = irq_lcg * 1664525u + 1013904223u;
	s = (uint16_t)(irq_lcg >> 16);
	ring[given % RING] = s;
	given = given + 1u;
	flow_sample_isr(s);
}

static uint32_t get_basepri(void)
{
	uint32_t v;
	__asm volatile("mrs %0, basepri" : "=r"(v));
	return v;
}

static void set_basepri(uint32_t v)
{
	__asm volatile("msr basepri, %0" : : "r"(v) : "memory");
}

/* 1 when s is exactly the samples ring[from .. from+s->count) */
static int snapshot_ok(const struct flow_stats *s, uint32_t from, uint32_t avail)
{
	uint32_t sum = 0, bins[FLOW_BINS];
	uint16_t mn = 0xFFFFu, mx = 0u;

	if (s->count > avail || s->count > RING / 2u) {
		return 0;
	}
	memset(bins, 0, sizeof(bins));
	for (uint32_t i = 0; i < s->count; i++) {
		uint16_t v = ring[(from + i) % RING];
		sum += v;
		if (v < mn) {
			mn = v;
		}
		if (v > mx) {
			mx = v;
		}
		bins[v >> 12]++;
	}
	return s->sum == sum && s->min == mn && s->max == mx && memcmp(bins, s->bins, sizeof(bins)) == 0;
}

static void stress(uint32_t n)
{
	struct flow_stats s;
	uint32_t taken = 0, bad = 0, kept = 0, preset = 0, lost;

	given = 0;
	lat_max = 0;
	fast_irqs = 0;
	REG(T0_RELOAD) = T0_PERIOD - 1u;
	REG(T1_RELOAD) = T1_PERIOD - 1u;
	REG(T0_INTCLR) = 1u;
	REG(T1_INTCLR) = 1u;
	REG(NVIC_ICPR0) = (1u << 8) | (1u << 9);
	REG(NVIC_ISER0) = (1u << 8) | (1u << 9);
	REG(T0_CTRL) = 0x9u;   /* enable, interrupt enable */
	REG(T1_CTRL) = 0x9u;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t gap = rnd() % 97u;
		for (volatile uint32_t k = 0; k < gap; k++) {
		}
		if ((i & 3u) == 3u) {
			preset++;
			set_basepri(0x80u);
			flow_take(&s);
			if (get_basepri() == 0x80u) {
				kept++;
			}
			set_basepri(0u);
		} else {
			flow_take(&s);
		}
		uint32_t avail = given - taken;
		if (!snapshot_ok(&s, taken, avail)) {
			bad++;
		}
		taken += s.count;
	}
	REG(T1_CTRL) = 0u;
	REG(T0_CTRL) = 0u;
	REG(NVIC_ICER0) = (1u << 8) | (1u << 9);
	flow_take(&s);
	if (!snapshot_ok(&s, taken, given - taken)) {
		bad++;
	}
	taken += s.count;
	lost = given - taken;
	printf("stress takes %lu samples %lu\n", (unsigned long)n + 1u, (unsigned long)given);
	printf("bad snapshots %lu\n", (unsigned long)bad);
	printf("lost samples %ld\n", (long)lost);
	printf("basepri kept %lu/%lu\n", (unsigned long)kept, (unsigned long)preset);
	printf("timer0 irqs %lu worst latency %lu ticks\n", (unsigned long)fast_irqs, (unsigned long)lat_max);
}

static int getch(void)
{
	while ((REG(UART0_STATE) & 2u) == 0u) {
	}
	return (int)(REG(UART0_DATA) & 0xFFu);
}

static void print_stats(const struct flow_stats *s)
{
	printf("take count %lu sum %lu min %u max %u bins", (unsigned long)s->count, (unsigned long)s->sum,
	       (unsigned)s->min, (unsigned)s->max);
	for (unsigned k = 0; k < FLOW_BINS; k++) {
		printf(" %lu", (unsigned long)s->bins[k]);
	}
	printf("\n");
}

int main(void)
{
	char line[160];

	REG(DT2_LOAD) = 2500u;
	REG(DT2_CTRL) = 0xC2u;   /* enable, periodic, 32-bit, no interrupt */
	REG(UART0_BAUD) = 217u;
	REG(UART0_CTRL) = 0x3u;

	flow_init();
	printf("priorities timer0 0x%02x timer1 0x%02x\n", (unsigned)*(volatile uint8_t *)0xE000E408u,
	       (unsigned)*(volatile uint8_t *)0xE000E409u);
	for (;;) {
		unsigned n = 0;
		int c;
		while ((c = getch()) != '\n') {
			if (c != '\r' && n < sizeof(line) - 1u) {
				line[n++] = (char)c;
			}
		}
		line[n] = '\0';
		if (strncmp(line, "feed", 4) == 0) {
			char *p = line + 4;
			for (;;) {
				char *e;
				unsigned long v = strtoul(p, &e, 10);
				if (e == p) {
					break;
				}
				flow_sample_isr((uint16_t)v);
				p = e;
			}
		} else if (strcmp(line, "take") == 0) {
			struct flow_stats s;
			memset(&s, 0xA5, sizeof(s));
			flow_take(&s);
			print_stats(&s);
		} else if (strncmp(line, "stress", 6) == 0) {
			stress((uint32_t)strtoul(line + 6, NULL, 10));
		} else if (strcmp(line, "end") == 0) {
			printf("end\n");
			exit(0);
		}
	}
}
