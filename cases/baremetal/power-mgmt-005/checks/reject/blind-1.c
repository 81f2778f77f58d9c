/* defect: the pending-period check is done with interrupts enabled; PRIMASK is only set around the WFI itself, so a timer0 interrupt between the check and cpsid is slept through until the next wake-up.
 * breaks: "The timer0 interrupt may come at any instant, also between `main`'s check for a pending period and its `WFI`; no period may then wait for a later wake-up."
 * must_fail: scenario_no_period_slept_through
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

#define PERIOD_CLOCKS    250000u        /* 10 ms at 25 MHz */
#define WINDOW_LEN       10u

static volatile uint32_t periods_pending;

void TIMER0_Handler(void)
{
    TIMER0_INTCLEAR = 1u;
    periods_pending++;
}

static void timer0_start(void)
{
    TIMER0_CTRL = 0u;
    TIMER0_INTCLEAR = 1u;
    TIMER0_RELOAD = PERIOD_CLOCKS - 1u;
    TIMER0_VALUE = PERIOD_CLOCKS;
    NVIC_ISER0 = 1u << TIMER0_IRQn;
    TIMER0_CTRL = TIMER_CTRL_ENABLE | TIMER_CTRL_IRQEN;
}

/* Sleep until a period is pending, then consume it. */
static void wait_for_period(void)
{
    while (periods_pending == 0u) {
        __asm volatile ("cpsid i\n\t"
                        "wfi\n\t"
                        "cpsie i" ::: "memory");
    }
    __asm volatile ("cpsid i" ::: "memory");
    periods_pending--;
    __asm volatile ("cpsie i" ::: "memory");
}

static int32_t window_mean(int64_t sum)
{
    const int64_t n = (int64_t)WINDOW_LEN;

    if (sum >= 0) {
        return (int32_t)((sum + n / 2) / n);
    }
    return (int32_t)((sum - n / 2) / n);
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
