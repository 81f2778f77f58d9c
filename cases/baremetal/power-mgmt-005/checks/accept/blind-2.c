#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

#include "board.h"

/*
 * VL-10 vibration logger.
 *
 * TIMER0 (CMSDK APB timer at 0x40000000, 25 MHz) raises IRQ 8 every 10 ms.
 * The handler only acknowledges it and flags the period; main does the
 * sensor read and the statistics, and sleeps in WFI otherwise.
 */

typedef struct {
    volatile uint32_t ctrl;       /* 0x00 */
    volatile uint32_t value;      /* 0x04 */
    volatile uint32_t reload;     /* 0x08 */
    volatile uint32_t intclear;   /* 0x0C  (read: INTSTATUS) */
} apb_timer_t;

#define TIMER0   ((apb_timer_t *)0x40000000u)
#define NVIC_ISER ((volatile uint32_t *)0xE000E100u)

static volatile bool period_flag;

/* readings of the current window */
static int32_t samples[10];
static unsigned nsamples;
static uint32_t windows_done;

void TIMER0_Handler(void)
{
    TIMER0->intclear = 1u;
    period_flag = true;
}

static inline void irq_disable(void) { __asm volatile ("cpsid i" ::: "memory"); }
static inline void irq_enable(void)  { __asm volatile ("cpsie i" ::: "memory"); }

/* Blocks in WFI until TIMER0_Handler has flagged a new period. */
static void sleep_until_period(void)
{
    for (;;) {
        irq_disable();
        if (period_flag) {
            period_flag = false;
            irq_enable();
            return;
        }
        /* Interrupts stay masked across WFI so a timer0 interrupt arriving
         * after the check above still ends the sleep; it is serviced as
         * soon as PRIMASK is cleared by the following instruction. */
        __asm volatile ("wfi\n\tcpsie i" ::: "memory");
    }
}

static void report_window(void)
{
    int32_t lo = samples[0];
    int32_t hi = samples[0];
    int64_t sum = 0;
    lldiv_t d;
    int64_t mean;
    unsigned i;

    for (i = 0; i < 10u; i++) {
        if (samples[i] < lo) lo = samples[i];
        if (samples[i] > hi) hi = samples[i];
        sum += samples[i];
    }

    /* round to nearest, ties away from zero */
    d = lldiv((long long)sum, 10LL);
    mean = d.quot;
    if (d.rem >= 5)
        mean += 1;
    else if (d.rem <= -5)
        mean -= 1;

    windows_done++;
    board_window(windows_done, lo, hi, (int32_t)mean);
}

int main(void)
{
    /* 10 ms = 250 000 cycles of the 25 MHz timer clock.
     * VALUE = 0 at enable: the timer loads RELOAD on the first clock
     * without an interrupt, so the first interrupt also comes
     * RELOAD + 1 = 250 000 clocks after the start. */
    TIMER0->ctrl = 0u;
    TIMER0->reload = 250000u - 1u;
    TIMER0->value = 0u;
    TIMER0->intclear = 1u;
    NVIC_ISER[0] = 1u << 8;                 /* IRQ 8: timer0 */
    TIMER0->ctrl = (1u << 3) | (1u << 0);   /* IRQ enable | enable */

    for (;;) {
        sleep_until_period();

        samples[nsamples++] = board_sensor_read();
        if (nsamples == 10u) {
            report_window();
            nsamples = 0;
        }
    }
}
