/* defect: RELOAD is programmed with 25000 instead of 25000-1, so each period is 25001 PCLK cycles and the timer does not flag exactly once per millisecond.
 * breaks: "`void timer0_init_1ms(void)`: make timer0 flag an event exactly once per millisecond, counting the peripheral clock."
 * must_fail: L2, reload_value_1ms
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <inttypes.h>

/* CMSDK APB timer0 on MPS2 AN385 */
#define TIMER0_BASE        0x40000000u
#define TIMER0_CTRL        (*(volatile uint32_t *)(TIMER0_BASE + 0x00u))
#define TIMER0_VALUE       (*(volatile uint32_t *)(TIMER0_BASE + 0x04u))
#define TIMER0_RELOAD      (*(volatile uint32_t *)(TIMER0_BASE + 0x08u))
#define TIMER0_INTSTATUS   (*(volatile uint32_t *)(TIMER0_BASE + 0x0Cu))
#define TIMER0_INTCLEAR    (*(volatile uint32_t *)(TIMER0_BASE + 0x0Cu))

#define TIMER_CTRL_EN      (1u << 0)
#define TIMER_CTRL_IRQEN   (1u << 3)
#define TIMER_INT_FLAG     (1u << 0)

#define GPIO0_DATA         (*(volatile const uint32_t *)0x40010000u)
#define BUTTON_MASK        (1u << 0)

#define PCLK_HZ            25000000u
#define TICKS_PER_MS       (PCLK_HZ / 1000u)

void timer0_init_1ms(void)
{
    TIMER0_CTRL = 0u;                       /* stop while configuring */
    TIMER0_RELOAD = TICKS_PER_MS;           /* 1 ms worth of PCLK ticks */
    TIMER0_VALUE = TICKS_PER_MS;
    TIMER0_INTCLEAR = TIMER_INT_FLAG;
    /* The flag is only raised with the interrupt enable set; the NVIC line
     * stays disabled, so no handler is ever entered. */
    TIMER0_CTRL = TIMER_CTRL_EN | TIMER_CTRL_IRQEN;
}

/* Start a fresh, full period and discard any event already flagged. */
static void timer0_restart_period(void)
{
    TIMER0_VALUE = TIMER0_RELOAD;
    TIMER0_INTCLEAR = TIMER_INT_FLAG;
}

void timer0_wait_ms(uint32_t ms)
{
    timer0_restart_period();
    while (ms > 0u) {
        while ((TIMER0_INTSTATUS & TIMER_INT_FLAG) == 0u) {
        }
        TIMER0_INTCLEAR = TIMER_INT_FLAG;
        ms--;
    }
}

int wait_bit_set(volatile const uint32_t *reg, uint32_t mask, uint32_t timeout_ms)
{
    uint32_t elapsed = 0u;

    timer0_restart_period();
    for (;;) {
        if ((*reg & mask) != 0u) {
            return 0;
        }
        if (elapsed >= timeout_ms) {
            return -1;
        }
        if ((TIMER0_INTSTATUS & TIMER_INT_FLAG) != 0u) {
            TIMER0_INTCLEAR = TIMER_INT_FLAG;
            elapsed++;
        }
    }
}

int main(void)
{
    timer0_init_1ms();
    printf("timer0 reload %" PRIu32 "\n", TIMER0_RELOAD);

    timer0_wait_ms(50u);
    printf("waited 50 ms\n");

    if (wait_bit_set(&GPIO0_DATA, BUTTON_MASK, 20u) != 0) {
        printf("button timeout after 20 ms\n");
    } else {
        printf("button pressed\n");
    }

    exit(0);
}
