/* defect: the window sum is accumulated in an int32_t, which overflows as soon as the 10 readings add up beyond the int32_t range (large readings give a wrong mean).
 * breaks: "A reading may be any `int32_t` value."
 * must_fail: scenario_full_int32_range
 */
#include <stdint.h>

#include "board.h"

#define TIMER0_CTRL      (*(volatile uint32_t *)0x40000000u)
#define TIMER0_VALUE     (*(volatile uint32_t *)0x40000004u)
#define TIMER0_RELOAD    (*(volatile uint32_t *)0x40000008u)
#define TIMER0_INTCLEAR  (*(volatile uint32_t *)0x4000000Cu)
#define NVIC_ISER0       (*(volatile uint32_t *)0xE000E100u)

#define READINGS_PER_WINDOW 10

static volatile uint32_t ticks;     /* incremented by the ISR */

void TIMER0_Handler(void)
{
    TIMER0_INTCLEAR = 1u;
    ticks++;
}

int main(void)
{
    uint32_t served = 0u;
    uint32_t window = 0u;
    int n = 0;
    int32_t lo = 0, hi = 0, sum = 0;

    /* 25 MHz timer clock, 10 ms period = 250 000 clocks */
    TIMER0_CTRL = 0u;
    TIMER0_RELOAD = 249999u;
    TIMER0_VALUE = 250000u;
    TIMER0_INTCLEAR = 1u;
    NVIC_ISER0 = 1u << 8;
    TIMER0_CTRL = 0x9u;     /* ENABLE | interrupt enable */

    for (;;) {
        int32_t r, mean;

        /* race-free sleep: check with PRIMASK set, WFI, unmask */
        __asm volatile ("cpsid i" ::: "memory");
        while (ticks == served) {
            __asm volatile ("wfi\n\tcpsie i\n\tcpsid i" ::: "memory");
        }
        served++;
        __asm volatile ("cpsie i" ::: "memory");

        r = board_sensor_read();
        if (n == 0) {
            lo = hi = r;
            sum = 0;
        }
        if (r < lo) lo = r;
        if (r > hi) hi = r;
        sum += r;

        if (++n == READINGS_PER_WINDOW) {
            if (sum >= 0)
                mean = (sum + READINGS_PER_WINDOW / 2) / READINGS_PER_WINDOW;
            else
                mean = (sum - READINGS_PER_WINDOW / 2) / READINGS_PER_WINDOW;
            window++;
            board_window(window, lo, hi, mean);
            n = 0;
        }
    }
}
