/* defect: CLKSOURCE (bit 2) is not set in SYST_CSR, so SysTick counts the external reference clock instead of the 25 MHz processor clock.
 * breaks: "SysTick is to count this processor clock."
 * must_fail: systick_ctrl_enable_tickint_clksource
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define SYST_CSR   (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR   (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR   (*(volatile uint32_t *)0xE000E018u)

#define SYST_CSR_ENABLE     (1u << 0)
#define SYST_CSR_TICKINT    (1u << 1)

#define CORE_CLOCK_HZ  25000000u

static volatile uint32_t g_ticks;

void SysTick_Handler(void)
{
    g_ticks++;
}

static void systick_init(void)
{
    SYST_CSR = 0u;
    SYST_RVR = (CORE_CLOCK_HZ / 1000u) - 1u;
    SYST_CVR = 0u;
    SYST_CSR = SYST_CSR_TICKINT | SYST_CSR_ENABLE;
}

int main(void)
{
    systick_init();

    while (g_ticks < 10u) {
        __asm volatile ("wfi" ::: "memory");
    }

    printf("ticks >= 10\n");
    printf("done\n");
    exit(0);
}
