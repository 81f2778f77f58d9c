#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define CORE_CLOCK_HZ 25000000U
#define TICK_RATE_HZ  1000U
#define WAIT_TICKS    10U

#define SYST_CSR (*(volatile uint32_t *)0xE000E010UL)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014UL)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018UL)

#define SYST_CSR_ENABLE    (1U << 0)
#define SYST_CSR_TICKINT   (1U << 1)
#define SYST_CSR_CLKSOURCE (1U << 2)

static volatile uint32_t g_ticks;

void SysTick_Handler(void)
{
	g_ticks++;
}

int main(void)
{
	SYST_CSR = 0U;
	SYST_RVR = CORE_CLOCK_HZ / TICK_RATE_HZ - 1U;
	SYST_CVR = 0U;
	SYST_CSR = SYST_CSR_CLKSOURCE | SYST_CSR_TICKINT | SYST_CSR_ENABLE;

	while (g_ticks < WAIT_TICKS) {
		__asm__ volatile("wfi");
	}

	printf("ticks >= 10\n");
	printf("done\n");
	exit(0);
}
