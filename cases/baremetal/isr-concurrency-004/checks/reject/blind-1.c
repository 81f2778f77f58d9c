/* defect: the reload value is 25000 instead of 25000-1, so each SysTick period is 25001 cycles and the interrupt is not exactly 1 ms.
 * breaks: "Configure SysTick to raise its interrupt once every millisecond."
 * must_fail: reload_value_1ms
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define SYST_CSR   (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR   (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR   (*(volatile uint32_t *)0xE000E018u)

#define SYST_CSR_ENABLE     (1u << 0)
#define SYST_CSR_TICKINT    (1u << 1)
#define SYST_CSR_CLKSOURCE  (1u << 2)

#define CORE_CLOCK_HZ  25000000u
#define TICK_HZ        1000u

static volatile uint32_t g_ticks;

void SysTick_Handler(void)
{
    g_ticks++;
}

int main(void)
{
    SYST_CSR = 0u;
    SYST_RVR = CORE_CLOCK_HZ / TICK_HZ;
    SYST_CVR = 0u;
    SYST_CSR = SYST_CSR_CLKSOURCE | SYST_CSR_TICKINT | SYST_CSR_ENABLE;

    while (g_ticks < 10u) {
        __asm volatile ("wfi" ::: "memory");
    }

    printf("ticks >= 10\n");
    printf("done\n");
    exit(0);
}
