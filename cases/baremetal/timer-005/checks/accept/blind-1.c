/*
 * 64-bit microsecond uptime clock from CMSDK APB timer0 on QEMU mps2-an385.
 *
 * timer0 runs from the 25 MHz peripheral clock with a 100 us period
 * (RELOAD = 2499 -> 2500 clocks per period). TIMER0_Handler counts completed
 * periods in a 64-bit counter; uptime_us() combines that count with the
 * down-counting VALUE register. A wrap that has happened but whose interrupt
 * has not been serviced yet (caller has interrupts masked) is detected via
 * INTSTATUS and accounted for.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- CMSDK APB timer0 ---- */
#define TIMER0_BASE        0x40000000u
#define TIMER0_CTRL        (*(volatile uint32_t *)(TIMER0_BASE + 0x00u))
#define TIMER0_VALUE       (*(volatile uint32_t *)(TIMER0_BASE + 0x04u))
#define TIMER0_RELOAD      (*(volatile uint32_t *)(TIMER0_BASE + 0x08u))
#define TIMER0_INTSTATUS   (*(volatile uint32_t *)(TIMER0_BASE + 0x0Cu))
#define TIMER0_INTCLEAR    (*(volatile uint32_t *)(TIMER0_BASE + 0x0Cu))

#define TIMER_CTRL_EN      (1u << 0)
#define TIMER_CTRL_IRQEN   (1u << 3)
#define TIMER_INT_FLAG     (1u << 0)

/* ---- NVIC (System Control Space) ---- */
#define NVIC_ISER0         (*(volatile uint32_t *)0xE000E100u)
#define NVIC_ICER0         (*(volatile uint32_t *)0xE000E180u)
#define NVIC_ICPR0         (*(volatile uint32_t *)0xE000E280u)

#define TIMER0_IRQn        8u          /* AN385 interrupt map: timer0 = IRQ 8 */

/* ---- clock parameters ---- */
#define PCLK_HZ            25000000u
#define TICKS_PER_US       (PCLK_HZ / 1000000u)          /* 25   */
#define PERIOD_US          100u
#define TICKS_PER_PERIOD   (TICKS_PER_US * PERIOD_US)    /* 2500 */
#define TIMER_RELOAD_VAL   (TICKS_PER_PERIOD - 1u)       /* 2499 */

static volatile uint64_t periods_done;   /* written only by TIMER0_Handler */

static inline uint32_t irq_save(void)
{
    uint32_t primask;
    __asm volatile ("mrs %0, primask" : "=r"(primask));
    __asm volatile ("cpsid i" ::: "memory");
    return primask;
}

static inline void irq_restore(uint32_t primask)
{
    __asm volatile ("msr primask, %0" :: "r"(primask) : "memory");
}

void TIMER0_Handler(void)
{
    TIMER0_INTCLEAR = TIMER_INT_FLAG;
    periods_done++;
    (void)TIMER0_INTSTATUS;              /* make sure the clear has landed */
    __asm volatile ("dsb" ::: "memory");
}

void uptime_init(void)
{
    TIMER0_CTRL = 0u;                    /* stop, no interrupt */
    NVIC_ICER0 = 1u << TIMER0_IRQn;

    periods_done = 0u;
    TIMER0_INTCLEAR = TIMER_INT_FLAG;
    NVIC_ICPR0 = 1u << TIMER0_IRQn;

    TIMER0_RELOAD = TIMER_RELOAD_VAL;    /* also loads VALUE */
    TIMER0_VALUE = TIMER_RELOAD_VAL;

    NVIC_ISER0 = 1u << TIMER0_IRQn;
    __asm volatile ("dsb\n\tisb" ::: "memory");

    TIMER0_CTRL = TIMER_CTRL_EN | TIMER_CTRL_IRQEN;   /* uptime 0 from here */
}

uint64_t uptime_us(void)
{
    uint32_t key = irq_save();

    uint64_t periods = periods_done;
    uint32_t value = TIMER0_VALUE;

    if (TIMER0_INTSTATUS & TIMER_INT_FLAG) {
        /* A count reached 0 and its interrupt is not serviced yet. Re-read the
         * counter now that the flag is known to be set: if it still reads 0 we
         * are on the last clock of the current period, otherwise it has been
         * reloaded and that period is complete. */
        value = TIMER0_VALUE;
        if (value != 0u) {
            periods++;
        }
    }

    irq_restore(key);

    uint32_t elapsed_ticks = TIMER_RELOAD_VAL - value;   /* 0 .. 2499 */
    return periods * PERIOD_US + elapsed_ticks / TICKS_PER_US;
}

int main(void)
{
    uptime_init();
    printf("uptime clock started\n");

    /* 2. interrupts enabled, tight loop */
    {
        uint64_t prev = uptime_us();
        uint64_t now = prev;
        int ok = 1;
        while (now < 30000u) {
            now = uptime_us();
            if (now < prev || now >= prev + 50u) {
                ok = 0;
                break;
            }
            prev = now;
        }
        if (!ok) {
            printf("monotonic FAIL\n");
            exit(1);
        }
        printf("monotonic ok\n");
    }

    /* 3. rounds with interrupts masked */
    {
        int ok = 1;
        for (int round = 0; round < 200 && ok; round++) {
            __asm volatile ("cpsid i" ::: "memory");
            uint64_t first = uptime_us();
            uint64_t prev = first;
            for (int calls = 1; calls < 10000; calls++) {
                uint64_t now = uptime_us();
                if (now < prev || now >= prev + 50u) {
                    ok = 0;
                    break;
                }
                prev = now;
                if (now >= first + 40u) {
                    break;
                }
            }
            __asm volatile ("cpsie i" ::: "memory");
        }
        if (!ok) {
            printf("masked FAIL\n");
            exit(1);
        }
        printf("masked ok\n");
    }

    printf("done\n");
    exit(0);
}
