/* defect: the tick counter shared with the ISR is not volatile and the wfi asm has no memory clobber, so at -O2 main may read it once and spin forever.
 * breaks: "In `main`: start SysTick, then wait until at least 10 ticks have elapsed."
 * must_fail: tick_counter_volatile
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    volatile uint32_t CTRL;
    volatile uint32_t LOAD;
    volatile uint32_t VAL;
    volatile const uint32_t CALIB;
} systick_regs_t;

#define SYSTICK ((systick_regs_t *)0xE000E010u)

#define CTRL_ENABLE    (1u << 0)
#define CTRL_TICKINT   (1u << 1)
#define CTRL_CLKSOURCE (1u << 2)

static uint32_t tick_count;

void SysTick_Handler(void)
{
    tick_count++;
}

static void systick_start_1ms(void)
{
    SYSTICK->CTRL = 0u;
    SYSTICK->LOAD = 25000000u / 1000u - 1u;
    SYSTICK->VAL = 0u;
    SYSTICK->CTRL = CTRL_CLKSOURCE | CTRL_TICKINT | CTRL_ENABLE;
}

int main(void)
{
    systick_start_1ms();

    while (tick_count < 10u) {
        __asm__ __volatile__("wfi");
    }

    puts("ticks >= 10");
    puts("done");
    exit(EXIT_SUCCESS);
}
