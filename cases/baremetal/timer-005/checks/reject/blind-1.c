/* defect: RELOAD is written as 2500 instead of 2499, so since one period lasts RELOAD + 1 clocks each period is 2501 clocks (100.04 us) while being counted as 100 us, and the clock runs slow.
 * breaks: "start timer0 so that it completes one period every 100 µs, counting the peripheral clock, with its interrupt delivered to `TIMER0_Handler`."
 * must_fail: timer0_periodic_100us
 */
/*
 * Monotonic 64-bit microsecond uptime on QEMU mps2-an385 using the CMSDK
 * APB timer0 (base 0x40000000, 25 MHz PCLK, AN385 IRQ 8) and its interrupt.
 *
 * The interrupt handler advances a 64-bit microsecond base by one period.
 * uptime_us() is lock-free: it re-reads the base until it is unchanged across
 * the sampling of the hardware counter (torn 64-bit reads and interrupts in
 * the middle are thereby detected), and it checks the interrupt flag so that
 * a wrap that is pending but not yet serviced (interrupts masked by the
 * caller) is still counted.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    volatile uint32_t CTRL;        /* 0x00 */
    volatile uint32_t VALUE;       /* 0x04 */
    volatile uint32_t RELOAD;      /* 0x08 */
    volatile uint32_t INTSTATUS;   /* 0x0C, write: INTCLEAR */
} cmsdk_timer_t;

#define TIMER0            ((cmsdk_timer_t *)0x40000000u)
#define TIMER0_IRQ        8

#define CTRL_ENABLE       0x1u
#define CTRL_INT_ENABLE   0x8u
#define INT_FLAG          0x1u

#define NVIC_ISER         ((volatile uint32_t *)0xE000E100u)
#define NVIC_ICER         ((volatile uint32_t *)0xE000E180u)
#define NVIC_ICPR         ((volatile uint32_t *)0xE000E280u)

#define CLK_PER_US        25u                       /* 25 MHz */
#define PERIOD_US         100u
#define PERIOD_CLKS       (PERIOD_US * CLK_PER_US)  /* 2500 clocks */

static volatile uint64_t base_us;   /* uptime at the start of the current period */

static void nvic_enable_irq(unsigned irq)
{
    NVIC_ICPR[irq / 32u] = 1u << (irq % 32u);
    NVIC_ISER[irq / 32u] = 1u << (irq % 32u);
}

static void nvic_disable_irq(unsigned irq)
{
    NVIC_ICER[irq / 32u] = 1u << (irq % 32u);
    __asm volatile ("dsb\n\tisb" ::: "memory");
}

void TIMER0_Handler(void)
{
    TIMER0->INTSTATUS = INT_FLAG;        /* INTCLEAR */
    base_us += PERIOD_US;
    __asm volatile ("dsb" ::: "memory");
}

void uptime_init(void)
{
    TIMER0->CTRL = 0u;
    nvic_disable_irq(TIMER0_IRQ);

    base_us = 0u;
    TIMER0->RELOAD = PERIOD_CLKS;        /* 2500 clocks = 100 us */
    TIMER0->VALUE = PERIOD_CLKS;
    TIMER0->INTSTATUS = INT_FLAG;

    nvic_enable_irq(TIMER0_IRQ);
    TIMER0->CTRL = CTRL_ENABLE | CTRL_INT_ENABLE;
}

uint64_t uptime_us(void)
{
    uint64_t before, after;
    uint32_t count;
    uint32_t extra_us;

    do {
        before = base_us;
        count = TIMER0->VALUE;
        extra_us = 0u;
        if (TIMER0->INTSTATUS & INT_FLAG) {
            /* Period boundary reached but not yet accounted for by the
             * handler. Sample the counter again, after the flag: 0 means we are
             * still at the end of this period; anything else is the reloaded
             * count of the next period. */
            count = TIMER0->VALUE;
            if (count != 0u) {
                extra_us = PERIOD_US;
            }
        }
        after = base_us;
    } while (before != after);

    uint32_t clks_into_period = PERIOD_CLKS - count;
    return before + extra_us + clks_into_period / CLK_PER_US;
}

static int check_step(uint64_t prev, uint64_t now)
{
    return now >= prev && now < prev + 50u;
}

static int run_unmasked_test(void)
{
    uint64_t prev = uptime_us();
    while (prev < 30000u) {
        uint64_t now = uptime_us();
        if (!check_step(prev, now)) {
            return 0;
        }
        prev = now;
    }
    return 1;
}

static int run_masked_round(void)
{
    int ok = 1;

    __asm volatile ("cpsid i" ::: "memory");
    uint64_t first = uptime_us();
    uint64_t prev = first;
    unsigned calls = 1u;
    while (prev < first + 40u && calls < 10000u) {
        uint64_t now = uptime_us();
        calls++;
        if (!check_step(prev, now)) {
            ok = 0;
            break;
        }
        prev = now;
    }
    __asm volatile ("cpsie i" ::: "memory");

    return ok;
}

int main(void)
{
    uptime_init();
    printf("uptime clock started\n");

    if (!run_unmasked_test()) {
        printf("monotonic FAIL\n");
        exit(1);
    }
    printf("monotonic ok\n");

    for (int round = 0; round < 200; round++) {
        if (!run_masked_round()) {
            printf("masked FAIL\n");
            exit(1);
        }
    }
    printf("masked ok\n");

    printf("done\n");
    exit(0);
}
