/*
 * Watchdog supervision demo for mps2-an385: CMSDK APB watchdog with a
 * 10 ms time-out, fed 20 times from a loop paced by timer0, then left to
 * expire; its interrupt (the NMI on this board) reports how long after the
 * last feed it fired.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define REG32(addr)       (*(volatile uint32_t *)(addr))

#define WDOG_BASE         0x40008000UL
#define WDOG_LOAD         REG32(WDOG_BASE + 0x000u)
#define WDOG_CONTROL      REG32(WDOG_BASE + 0x008u)
#define WDOG_INTCLR       REG32(WDOG_BASE + 0x00Cu)
#define WDOG_LOCK         REG32(WDOG_BASE + 0xC00u)
#define WDOG_UNLOCK_KEY   0x1ACCE551u
#define WDOG_INTEN        (1u << 0)
#define WDOG_RESEN        (1u << 1)

#define TIMER0_BASE       0x40000000UL
#define TIMER0_CTRL       REG32(TIMER0_BASE + 0x00u)
#define TIMER0_VALUE      REG32(TIMER0_BASE + 0x04u)
#define TIMER0_RELOAD     REG32(TIMER0_BASE + 0x08u)

#define CLOCK_HZ          25000000u
#define TIMEOUT_MS        10u
#define FEED_COUNT        20u
#define FEED_PERIOD_TICKS (2u * (CLOCK_HZ / 1000u))

static volatile uint32_t last_feed_ticks;

/* Ticks elapsed since timer0 was started (it counts down from 0xFFFFFFFF). */
static uint32_t now_ticks(void)
{
	return 0xFFFFFFFFu - TIMER0_VALUE;
}

static void wdog_feed(void)
{
	WDOG_LOCK = WDOG_UNLOCK_KEY;
	WDOG_INTCLR = 1u;
	WDOG_LOCK = 0u;
}

void NMI_Handler(void)
{
	uint32_t us = (now_ticks() - last_feed_ticks) / (CLOCK_HZ / 1000000u);

	printf("watchdog expired %lu us after the last feed\n", (unsigned long)us);
	exit(0);
}

int main(void)
{
	TIMER0_CTRL = 0u;
	TIMER0_RELOAD = 0xFFFFFFFFu;
	TIMER0_CTRL = 1u;

	WDOG_LOCK = WDOG_UNLOCK_KEY;
	WDOG_LOAD = (CLOCK_HZ / 1000u) * TIMEOUT_MS;
	WDOG_CONTROL = WDOG_INTEN | WDOG_RESEN;
	WDOG_LOCK = 0u;
	last_feed_ticks = now_ticks();
	printf("watchdog armed: load %lu\n", (unsigned long)((CLOCK_HZ / 1000u) * TIMEOUT_MS));

	uint32_t next = last_feed_ticks;
	for (uint32_t i = 0; i < FEED_COUNT; i++) {
		next += FEED_PERIOD_TICKS;
		while ((int32_t)(now_ticks() - next) < 0) {
		}
		wdog_feed();
		last_feed_ticks = now_ticks();
	}
	printf("fed %lu times, feeding stopped\n", (unsigned long)FEED_COUNT);

	for (;;) {
		/* busy wait: no sleep, the watchdog clock must keep running */
	}
}
