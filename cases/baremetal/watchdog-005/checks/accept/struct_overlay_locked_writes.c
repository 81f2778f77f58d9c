/* Variant: register structs, every watchdog write goes through a helper
 * that unlocks, writes and locks again; elapsed time in a 64-bit-free
 * tick difference computed in the handler. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
	volatile uint32_t LOAD;
	volatile uint32_t VALUE;
	volatile uint32_t CONTROL;
	volatile uint32_t INTCLR;
	volatile uint32_t RIS;
	volatile uint32_t MIS;
	uint32_t RESERVED[762];
	volatile uint32_t LOCK;
} wdog_regs_t;

typedef struct {
	volatile uint32_t CTRL;
	volatile uint32_t VALUE;
	volatile uint32_t RELOAD;
	volatile uint32_t INTSTATUS;
} cmsdk_timer_t;

#define WDOG   ((wdog_regs_t *)0x40008000u)
#define TIMER0 ((cmsdk_timer_t *)0x40000000u)

enum {
	UNLOCK = 0x1ACCE551u,
	TICKS_PER_US = 25u,
	TICKS_PER_MS = 25000u,
};

static volatile uint32_t fed_at;   /* timer0 VALUE at the last feed */

static void wdog_locked_write(volatile uint32_t *reg, uint32_t value)
{
	WDOG->LOCK = UNLOCK;
	*reg = value;
	WDOG->LOCK = 1u;
}

void NMI_Handler(void)
{
	uint32_t now = TIMER0->VALUE;

	printf("watchdog expired %lu us after the last feed\n",
	       (unsigned long)((fed_at - now) / TICKS_PER_US));
	exit(0);
}

int main(void)
{
	TIMER0->CTRL = 0;
	TIMER0->RELOAD = 0xFFFFFFFFu;
	TIMER0->CTRL = 1u;

	WDOG->LOCK = UNLOCK;
	WDOG->LOAD = 10u * TICKS_PER_MS;
	WDOG->CONTROL = 3u;
	WDOG->LOCK = 0u;
	uint32_t armed = TIMER0->VALUE;
	fed_at = armed;
	puts("watchdog armed: load 250000");

	for (unsigned k = 1; k <= 20; ++k) {
		while (armed - TIMER0->VALUE < k * 2u * TICKS_PER_MS) {
			;
		}
		wdog_locked_write(&WDOG->INTCLR, k);
		fed_at = TIMER0->VALUE;
	}
	puts("fed 20 times, feeding stopped");
	while (1) {
	}
}
