/* defect: SysTick reload is written as 25000 instead of 25000-1, so each period is 25001 core cycles and the tick is slightly slower than 1 ms.
 * breaks: "Configure SysTick so that it raises its exception exactly once per millisecond."
 * must_fail: reload_value_1ms
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

static volatile uint32_t g_ms_ticks;

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
    SYST_RVR = CORE_CLOCK_HZ / TICK_HZ;              /* 25000 cycles per tick */
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
