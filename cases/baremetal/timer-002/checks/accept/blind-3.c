/* defect: timer0_wait_ms does not clear an event flag left pending from before the call (e.g. raised during the preceding printf), so that stale event is counted as a full period and the wait returns up to one period early.
 * breaks: "`void timer0_wait_ms(uint32_t ms)`: return after `ms` timer0 periods."
 * must_fail: none
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    volatile uint32_t CTRL;       /* 0x00 */
    volatile uint32_t VALUE;      /* 0x04 */
    volatile uint32_t RELOAD;     /* 0x08 */
    volatile uint32_t INTSTATUS;  /* 0x0C, write: INTCLEAR */
} cmsdk_timer_t;

#define TIMER0        ((cmsdk_timer_t *)0x40000000u)
#define GPIO0_DATA    ((volatile const uint32_t *)0x40010000u)

enum {
    CTRL_ENABLE     = 0x1u,
    CTRL_IRQ_ENABLE = 0x8u,
};

#define PCLK_HZ       25000000ul
#define RELOAD_1MS    ((uint32_t)(PCLK_HZ / 1000ul) - 1u)

/* Returns 1 and acknowledges the event if a 1 ms period has ended. */
static int timer0_period_elapsed(void)
{
    if (TIMER0->INTSTATUS & 1u) {
        TIMER0->INTSTATUS = 1u;   /* INTCLEAR: write one to clear */
        return 1;
    }
    return 0;
}

void timer0_init_1ms(void)
{
    TIMER0->CTRL = 0u;
    TIMER0->INTSTATUS = 1u;
    TIMER0->RELOAD = RELOAD_1MS;
    TIMER0->VALUE = RELOAD_1MS;
    TIMER0->CTRL = CTRL_ENABLE | CTRL_IRQ_ENABLE;
}

void timer0_wait_ms(uint32_t ms)
{
    uint32_t done = 0u;

    while (done < ms) {
        if (timer0_period_elapsed()) {
            done++;
        }
    }
}

int wait_bit_set(volatile const uint32_t *reg, uint32_t mask, uint32_t timeout_ms)
{
    uint32_t remaining = timeout_ms;

    TIMER0->INTSTATUS = 1u;
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
    printf("timer0 reload %lu\n", (unsigned long)TIMER0->RELOAD);

    timer0_wait_ms(50u);
    printf("waited 50 ms\n");

    int rc = wait_bit_set(GPIO0_DATA, 1u, 20u);
    if (rc == 0) {
        printf("button pressed\n");
    } else {
        printf("button timeout after 20 ms\n");
    }

    exit(0);
    return 0;
}
