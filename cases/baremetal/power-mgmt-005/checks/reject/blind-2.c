/* defect: the mean is rounded with (sum + 5) / 10 for every sign, so negative halves round toward zero (-12.5 gives -12) and other negative means are off by one.
 * breaks: "Right after the 10th reading of a window, in the same period, call `board_window(index, min, max, mean)` with the window's number (from 1), its smallest and its largest reading, and the mean of its 10 readings rounded to the nearest integer, halves rounded away from zero (12.5 gives 13, -12.5 gives -13)."
 * must_fail: scenario_mean_halves_away_from_zero, scenario_mean_rounds_to_nearest
 */
#include <stdint.h>
#include <stdbool.h>

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
    volatile uint32_t intclear;   /* 0x0C */
} apb_timer_t;

#define TIMER0   ((apb_timer_t *)0x40000000u)
#define NVIC_ISER ((volatile uint32_t *)0xE000E100u)

static volatile bool period_flag;

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

static void sleep_until_period(void)
{
    for (;;) {
        irq_disable();
        if (period_flag) {
            period_flag = false;
            irq_enable();
            return;
        }
        __asm volatile ("wfi\n\tcpsie i" ::: "memory");
    }
}

static void report_window(void)
{
    int32_t lo = samples[0];
    int32_t hi = samples[0];
    int64_t sum = 0;
    unsigned i;

    for (i = 0; i < 10u; i++) {
        if (samples[i] < lo) lo = samples[i];
        if (samples[i] > hi) hi = samples[i];
        sum += samples[i];
    }

    windows_done++;
    board_window(windows_done, lo, hi, (int32_t)((sum + 5) / 10));
}

int main(void)
{
    TIMER0->ctrl = 0u;
    TIMER0->reload = 250000u - 1u;
    TIMER0->value = 0u;
    TIMER0->intclear = 1u;
    NVIC_ISER[0] = 1u << 8;
    TIMER0->ctrl = (1u << 3) | (1u << 0);

    for (;;) {
        sleep_until_period();

        samples[nsamples++] = board_sensor_read();
        if (nsamples == 10u) {
            report_window();
            nsamples = 0;
        }
    }
}
