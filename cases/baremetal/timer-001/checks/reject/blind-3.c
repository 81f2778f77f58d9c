/* defect: the millisecond counter shared with SysTick_Handler is not volatile, so at -O1 and above the polling loops in main and delay_ms read it once and spin forever.
 * breaks: "Provide `void delay_ms(uint32_t ms)`, which busy-waits on that millisecond count until at least `ms` milliseconds have passed."
 * must_fail: L2, tick_counter_volatile
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* SysTick registers (ARMv7-M System Control Space) */
#define SYST_CSR   (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR   (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR   (*(volatile uint32_t *)0xE000E018u)

#define SYST_CSR_ENABLE     (1u << 0)
#define SYST_CSR_TICKINT    (1u << 1)
#define SYST_CSR_CLKSOURCE  (1u << 2)

#define CORE_CLOCK_HZ  25000000u
#define TICK_HZ        1000u

static uint32_t g_ms_ticks;

void SysTick_Handler(void)
{
    g_ms_ticks++;
}

static uint32_t millis(void)
{
    return g_ms_ticks;   /* aligned 32-bit read is atomic on Cortex-M3 */
}

static void systick_init(void)
{
    SYST_CSR = 0u;                                   /* stop while configuring */
    SYST_RVR = (CORE_CLOCK_HZ / TICK_HZ) - 1u;       /* 24999 -> 25000 cycles */
    SYST_CVR = 0u;                                   /* clear current value */
    SYST_CSR = SYST_CSR_CLKSOURCE | SYST_CSR_TICKINT | SYST_CSR_ENABLE;
}

void delay_ms(uint32_t ms)
{
    uint32_t start = millis();

    /* unsigned subtraction stays correct across the 32-bit wrap */
    while ((uint32_t)(millis() - start) < ms) {
        /* busy-wait */
    }
}

int main(void)
{
    uint32_t t0;
    uint32_t elapsed;

    __asm volatile ("cpsie i" ::: "memory");
    systick_init();

    t0 = millis();
    while (millis() == t0) {
        /* wait for the first tick */
    }
    printf("tick ok\n");

    t0 = millis();
    delay_ms(100);
    elapsed = millis() - t0;
    printf("elapsed %lu ms\n", (unsigned long)elapsed);

    exit(0);
}
