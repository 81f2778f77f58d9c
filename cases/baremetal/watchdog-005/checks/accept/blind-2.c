#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* CMSDK APB timer (only the registers used here). */
typedef struct {
    volatile uint32_t CTRL;      /* 0x00 */
    volatile uint32_t VALUE;     /* 0x04 */
    volatile uint32_t RELOAD;    /* 0x08 */
} cmsdk_timer_t;

/* CMSDK APB watchdog. */
typedef struct {
    volatile uint32_t LOAD;      /* 0x000 */
    volatile uint32_t VALUE;     /* 0x004 */
    volatile uint32_t CONTROL;   /* 0x008 */
    volatile uint32_t INTCLR;    /* 0x00C */
    volatile uint32_t RIS;       /* 0x010 */
    volatile uint32_t MIS;       /* 0x014 */
    uint32_t reserved[(0xC00 - 0x018) / 4];
    volatile uint32_t LOCK;      /* 0xC00 */
} cmsdk_wdog_t;

#define TIMER0  ((cmsdk_timer_t *)0x40000000u)
#define WDOG    ((cmsdk_wdog_t *)0x40008000u)

_Static_assert(__builtin_offsetof(cmsdk_wdog_t, LOCK) == 0xC00, "WDOGLOCK offset");

enum {
    WDOG_KEY       = 0x1ACCE551,
    WDOG_INTEN     = 0x1,
    WDOG_RESEN     = 0x2,
    LOAD_10MS      = 250000,     /* 10 ms at 25 MHz */
    TICKS_2MS      = 50000,      /* 2 ms at 25 MHz */
    TICKS_PER_US   = 25,
    FEEDS          = 20
};

/* timer0 count latched at the most recent feed (timer0 counts down). */
static volatile uint32_t g_last_feed;

void NMI_Handler(void)
{
    uint32_t t = TIMER0->VALUE;
    uint32_t us = (uint32_t)(g_last_feed - t) / TICKS_PER_US;

    printf("watchdog expired %lu us after the last feed\n", (unsigned long)us);
    exit(0);
}

int main(void)
{
    uint32_t t_arm;
    int k;

    TIMER0->CTRL = 0;                 /* enable = 0, interrupt enable = 0 */
    TIMER0->RELOAD = 0xFFFFFFFFu;     /* also sets VALUE */
    TIMER0->CTRL = 1;                 /* enable, interrupt still disabled */

    WDOG->LOCK = WDOG_KEY;
    WDOG->LOAD = LOAD_10MS;
    WDOG->CONTROL = WDOG_INTEN | WDOG_RESEN;
    t_arm = TIMER0->VALUE;
    WDOG->LOCK = 0;                   /* any value other than the key locks */

    g_last_feed = t_arm;
    printf("watchdog armed: load %d\n", LOAD_10MS);

    for (k = 1; k <= FEEDS; k++) {
        /* absolute deadline, so the feeds do not drift */
        uint32_t deadline = t_arm - (uint32_t)k * TICKS_2MS;

        while ((int32_t)(TIMER0->VALUE - deadline) > 0) {
        }

        WDOG->LOCK = WDOG_KEY;
        g_last_feed = TIMER0->VALUE;
        WDOG->INTCLR = 1;
        WDOG->LOCK = 0;
    }

    printf("fed %d times, feeding stopped\n", FEEDS);

    for (;;) {
        /* keep the core busy until the watchdog NMI ends the program */
    }
}
