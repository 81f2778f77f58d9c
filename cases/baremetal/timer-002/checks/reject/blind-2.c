/* defect: the "interrupt enable" constant is bit 2 (external input as clock) instead of bit 3, so the timer is told to count the external input and the polled interrupt flag is never raised.
 * breaks: "`void timer0_init_1ms(void)`: make timer0 flag an event exactly once per millisecond, counting the peripheral clock."
 * must_fail: L2, ctrl_enables_timer_and_flag
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define TIMER0_CTRL       (*(volatile uint32_t *)0x40000000u)
#define TIMER0_VALUE      (*(volatile uint32_t *)0x40000004u)
#define TIMER0_RELOAD     (*(volatile uint32_t *)0x40000008u)
#define TIMER0_INTSTATUS  (*(volatile uint32_t *)0x4000000Cu)
#define TIMER0_INTCLEAR   (*(volatile uint32_t *)0x4000000Cu)

#define TIMER_CTRL_ENABLE (1u << 0)
#define TIMER_CTRL_INTEN  (1u << 2)
#define TIMER_INTFLAG     (1u << 0)

#define GPIO0_DATAIN      ((volatile const uint32_t *)0x40010000u)

#define PCLK_HZ           25000000u

static int timer0_period_elapsed(void)
{
    if (TIMER0_INTSTATUS & TIMER_INTFLAG) {
        TIMER0_INTCLEAR = TIMER_INTFLAG;
        return 1;
    }
    return 0;
}

void timer0_init_1ms(void)
{
    TIMER0_CTRL = 0u;
    TIMER0_INTCLEAR = TIMER_INTFLAG;
    TIMER0_RELOAD = PCLK_HZ / 1000u - 1u;
    TIMER0_VALUE = PCLK_HZ / 1000u - 1u;
    TIMER0_CTRL = TIMER_CTRL_ENABLE | TIMER_CTRL_INTEN;
}

void timer0_wait_ms(uint32_t ms)
{
    uint32_t done = 0u;

    TIMER0_INTCLEAR = TIMER_INTFLAG;
    while (done < ms) {
        if (timer0_period_elapsed()) {
            done++;
        }
    }
}

int wait_bit_set(volatile const uint32_t *reg, uint32_t mask, uint32_t timeout_ms)
{
    uint32_t remaining = timeout_ms;

    TIMER0_INTCLEAR = TIMER_INTFLAG;
    while ((*reg & mask) == 0u) {
        if (remaining == 0u) {
            return -1;
        }
        if (timer0_period_elapsed()) {
            remaining--;
        }
    }
    return 0;
}

int main(void)
{
    timer0_init_1ms();
    printf("timer0 reload %lu\n", (unsigned long)TIMER0_RELOAD);

    timer0_wait_ms(50u);
    printf("waited 50 ms\n");

    if (wait_bit_set(GPIO0_DATAIN, 1u, 20u) == 0) {
        printf("button pressed\n");
    } else {
        printf("button timeout after 20 ms\n");
    }

    exit(0);
}
