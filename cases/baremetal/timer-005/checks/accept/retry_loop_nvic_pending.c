/*
 * Lock-free variant: uptime_us() never masks interrupts. It re-reads the
 * period count until no handler ran in the middle, and it sees a period
 * that ended while the caller has interrupts disabled through the NVIC
 * pending bit of timer0's line.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define REG32(addr) (*(volatile uint32_t *)(addr))

#define TMR0_BASE     0x40000000UL
#define TMR0_CTRL     REG32(TMR0_BASE + 0x00U)
#define TMR0_VALUE    REG32(TMR0_BASE + 0x04U)
#define TMR0_RELOAD   REG32(TMR0_BASE + 0x08U)
#define TMR0_INTCLEAR REG32(TMR0_BASE + 0x0CU)

#define NVIC_ISER ((volatile uint32_t *)0xE000E100UL)
#define NVIC_ISPR ((volatile uint32_t *)0xE000E200UL)

#define IRQ_TIMER0 8u

enum {
	CLK_PER_US = 25,
	TICK_US = 100,
	CLK_PER_TICK = CLK_PER_US * TICK_US,
};

static struct {
	volatile uint64_t wraps;
} clk;

void TIMER0_Handler(void)
{
	clk.wraps = clk.wraps + 1u;
	TMR0_INTCLEAR = 1u;
}

static void timer0_configure(uint32_t reload)
{
	TMR0_CTRL = 0u;
	TMR0_RELOAD = reload;
	TMR0_INTCLEAR = 1u;
	TMR0_CTRL = (1u << 3) | (1u << 0);
}

void uptime_init(void)
{
	clk.wraps = 0u;
	NVIC_ISER[IRQ_TIMER0 / 32u] = 1u << (IRQ_TIMER0 % 32u);
	timer0_configure(CLK_PER_TICK - 1u);
}

uint64_t uptime_us(void)
{
	uint64_t before;
	uint64_t wraps;
	uint32_t remaining;

	do {
		before = clk.wraps;
		wraps = before;
		remaining = TMR0_VALUE;
		if ((NVIC_ISPR[0] & (1u << IRQ_TIMER0)) != 0u) {
			/* flag raised while interrupts are off: not counted yet */
			wraps += 1u;
			remaining = TMR0_VALUE;
		}
	} while (before != clk.wraps);

	uint32_t into = (remaining == 0u) ? 0u : (uint32_t)CLK_PER_TICK - remaining;

	return wraps * TICK_US + into / CLK_PER_US;
}

static int advances(uint64_t older, uint64_t newer)
{
	return newer >= older && newer < older + 50u;
}

int main(void)
{
	uint64_t last;
	int ok = 1;

	uptime_init();
	puts("uptime clock started");

	for (last = uptime_us(); ok && last < 30000u;) {
		uint64_t t = uptime_us();

		ok = advances(last, t);
		last = t;
	}
	if (!ok) {
		puts("monotonic FAIL");
		return 1;
	}
	puts("monotonic ok");

	for (int round = 0; ok && round < 200; round++) {
		__asm volatile("cpsid i" ::: "memory");
		uint64_t start = uptime_us();
		last = start;
		for (int calls = 0; calls < 10000 && last < start + 40u; calls++) {
			uint64_t t = uptime_us();

			if (!advances(last, t)) {
				ok = 0;
				break;
			}
			last = t;
		}
		__asm volatile("cpsie i" ::: "memory");
	}
	if (!ok) {
		puts("masked FAIL");
		return 1;
	}
	puts("masked ok");
	puts("done");
	return 0;
}
