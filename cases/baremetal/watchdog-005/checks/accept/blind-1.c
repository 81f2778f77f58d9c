/*
 * main.c - CMSDK APB watchdog on mps2-an385: arm with a 10 ms time-out,
 * feed it 20 times every 2 ms, then let it expire into the NMI and report
 * how long after the last feed that happened (measured on timer0).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define REG32(addr)        (*(volatile uint32_t *)(addr))

/* CMSDK APB timer0: free-running time base. */
#define TIMER0_BASE        0x40000000u
#define TIMER0_CTRL        REG32(TIMER0_BASE + 0x00u)
#define TIMER0_VALUE       REG32(TIMER0_BASE + 0x04u)
#define TIMER0_RELOAD      REG32(TIMER0_BASE + 0x08u)
#define TIMER_CTRL_EN      (1u << 0)

/* CMSDK APB watchdog. */
#define WDOG_BASE          0x40008000u
#define WDOG_LOAD          REG32(WDOG_BASE + 0x000u)
#define WDOG_VALUE         REG32(WDOG_BASE + 0x004u)
#define WDOG_CONTROL       REG32(WDOG_BASE + 0x008u)
#define WDOG_INTCLR        REG32(WDOG_BASE + 0x00Cu)
#define WDOG_RIS           REG32(WDOG_BASE + 0x010u)
#define WDOG_LOCK          REG32(WDOG_BASE + 0xC00u)
#define WDOG_CTRL_INTEN    (1u << 0)
#define WDOG_CTRL_RESEN    (1u << 1)
#define WDOG_UNLOCK_KEY    0x1ACCE551u

#define CLK_HZ             25000000u
#define TICKS_PER_US       (CLK_HZ / 1000000u)      /* 25 */
#define TICKS_PER_MS       (CLK_HZ / 1000u)         /* 25000 */
#define WDOG_TIMEOUT_MS    10u
#define WDOG_LOAD_VALUE    (WDOG_TIMEOUT_MS * TICKS_PER_MS)   /* 250000 */
#define FEED_PERIOD_MS     2u
#define FEED_COUNT         20u

/* timer0 value at the last feed, read by the NMI handler. */
static volatile uint32_t last_feed_ticks;

static inline uint32_t now(void)
{
    return TIMER0_VALUE;
}

/* timer0 counts down: elapsed ticks since 'since', modulo 2^32. */
static inline uint32_t ticks_since(uint32_t since)
{
    return since - now();
}

static void wdog_unlock(void)
{
    WDOG_LOCK = WDOG_UNLOCK_KEY;
}

static void wdog_lock(void)
{
    WDOG_LOCK = 0u;
}

static void wdog_feed(void)
{
    wdog_unlock();
    WDOG_INTCLR = 1u;
    last_feed_ticks = now();
    wdog_lock();
}

void NMI_Handler(void)
{
    uint32_t elapsed = last_feed_ticks - now();

    printf("watchdog expired %lu us after the last feed\n",
           (unsigned long)(elapsed / TICKS_PER_US));
    exit(0);
}

int main(void)
{
    uint32_t armed_at;
    uint32_t k;

    /* 1. timer0 free-running from 0xFFFFFFFF, no interrupt. */
    TIMER0_CTRL = 0u;
    TIMER0_RELOAD = 0xFFFFFFFFu;
    TIMER0_CTRL = TIMER_CTRL_EN;

    /* 2. Arm the watchdog. */
    wdog_unlock();
    WDOG_LOAD = WDOG_LOAD_VALUE;
    WDOG_CONTROL = WDOG_CTRL_INTEN | WDOG_CTRL_RESEN;
    armed_at = now();
    last_feed_ticks = armed_at;
    wdog_lock();
    printf("watchdog armed: load %lu\n", (unsigned long)WDOG_LOAD_VALUE);

    /* 3. Feed k happens 2*k ms after arming. */
    for (k = 1u; k <= FEED_COUNT; k++) {
        uint32_t due = k * FEED_PERIOD_MS * TICKS_PER_MS;

        while (ticks_since(armed_at) < due) {
            /* busy wait */
        }
        wdog_feed();
    }

    /* 4. Stop feeding and wait for the watchdog. */
    printf("fed %lu times, feeding stopped\n", (unsigned long)FEED_COUNT);
    for (;;) {
    }
}
