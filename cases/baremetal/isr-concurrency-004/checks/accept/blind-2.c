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

enum {
    CTRL_ENABLE    = 1u << 0,
    CTRL_TICKINT   = 1u << 1,
    CTRL_CLKSOURCE = 1u << 2,
};

static const uint32_t core_hz = 25000000u;

static volatile uint32_t tick_count;

void SysTick_Handler(void)
{
    tick_count = tick_count + 1u;
}

static uint32_t ticks_now(void)
{
    return tick_count;
}

static void systick_start_1ms(void)
{
    uint32_t reload = core_hz / 1000u - 1u;

    SYSTICK->CTRL = 0u;
    SYSTICK->LOAD = reload;
    SYSTICK->VAL = 0u;
    SYSTICK->CTRL = CTRL_CLKSOURCE | CTRL_TICKINT | CTRL_ENABLE;
}

static void wait_for_interrupt(void)
{
    __asm__ __volatile__("wfi" : : : "memory");
}

int main(void)
{
    uint32_t start;

    start = ticks_now();
    systick_start_1ms();

    for (;;) {
        if ((uint32_t)(ticks_now() - start) >= 10u) {
            break;
        }
        wait_for_interrupt();
    }

    puts("ticks >= 10");
    puts("done");
    fflush(stdout);
    exit(EXIT_SUCCESS);
}
