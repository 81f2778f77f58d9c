/*
 * main.c - VL-10 vibration logger, MPS2 AN385 (Cortex-M3), bare metal.
 *
 * timer0 interrupts every 10 ms; main reads the sensor once per period and
 * reports min/max/mean of every 10 readings. Between jobs the core sleeps
 * in WFI; the check-then-sleep race is closed with PRIMASK.
 */
#include <stdint.h>

#include "board.h"

/* CMSDK APB timer0 */
#define TIMER0_CTRL      (*(volatile uint32_t *)0x40000000u)
#define TIMER0_VALUE     (*(volatile uint32_t *)0x40000004u)
#define TIMER0_RELOAD    (*(volatile uint32_t *)0x40000008u)
#define TIMER0_INTCLEAR  (*(volatile uint32_t *)0x4000000Cu)

#define TIMER_CTRL_ENABLE  (1u << 0)
#define TIMER_CTRL_IRQEN   (1u << 3)

/* NVIC */
#define NVIC_ISER0       (*(volatile uint32_t *)0xE000E100u)
#define TIMER0_IRQn      8u

#define TIMER_CLOCK_HZ   25000000u
#define PERIOD_MS        10u
#define PERIOD_CLOCKS    (TIMER_CLOCK_HZ / 1000u * PERIOD_MS)   /* 250 000 */

#define WINDOW_LEN       10u

/* Number of timer0 periods signalled by the ISR and not yet served. */
static volatile uint32_t periods_pending;

void TIMER0_Handler(void)
{
    TIMER0_INTCLEAR = 1u;
    periods_pending++;
}

static void timer0_start(void)
{
    TIMER0_CTRL = 0u;                       /* stop while configuring */
    TIMER0_INTCLEAR = 1u;
    TIMER0_RELOAD = PERIOD_CLOCKS - 1u;     /* period = RELOAD + 1 clocks */
    TIMER0_VALUE = PERIOD_CLOCKS;           /* first interrupt after 10 ms */
    NVIC_ISER0 = 1u << TIMER0_IRQn;
    TIMER0_CTRL = TIMER_CTRL_ENABLE | TIMER_CTRL_IRQEN;
}

/* Sleep until a period is pending, then consume it. */
static void wait_for_period(void)
{
    __asm volatile ("cpsid i" ::: "memory");
    while (periods_pending == 0u) {
        /* WFI with PRIMASK set: a pending interrupt still wakes the core,
         * and is taken right after cpsie. */
        __asm volatile ("wfi\n\t"
                        "cpsie i\n\t"
                        "cpsid i" ::: "memory");
    }
    periods_pending--;
    __asm volatile ("cpsie i" ::: "memory");
}

/* Mean of the window, rounded to nearest, halves away from zero. */
static int32_t window_mean(int64_t sum)
{
    const int64_t n = (int64_t)WINDOW_LEN;
    int64_t q;

    if (sum >= 0) {
        q = (sum + n / 2) / n;
    } else {
        q = (sum - n / 2) / n;
    }
    return (int32_t)q;
}

int main(void)
{
    uint32_t window_index = 1u;
    uint32_t count = 0u;
    int32_t wmin = 0;
    int32_t wmax = 0;
    int64_t wsum = 0;

    timer0_start();

    for (;;) {
        int32_t r;

        wait_for_period();

        r = board_sensor_read();

        if (count == 0u) {
            wmin = r;
            wmax = r;
            wsum = 0;
        } else {
            if (r < wmin) {
                wmin = r;
            }
            if (r > wmax) {
                wmax = r;
            }
        }
        wsum += r;
        count++;

        if (count == WINDOW_LEN) {
            board_window(window_index, wmin, wmax, window_mean(wsum));
            window_index++;
            count = 0u;
        }
    }
}
