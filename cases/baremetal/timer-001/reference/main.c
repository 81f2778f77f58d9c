#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define CORE_CLOCK_HZ 25000000U
#define TICK_RATE_HZ  1000U

#define SYST_CSR (*(volatile uint32_t *)0xE000E010UL)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014UL)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018UL)

#define SYST_CSR_ENABLE    (1U << 0)
#define SYST_CSR_TICKINT   (1U << 1)
#define SYST_CSR_CLKSOURCE (1U << 2)

static volatile uint32_t tick_count;

void SysTick_Handler(void)
{
	tick_count++;
}

static void systick_init(void)
{
	SYST_CSR = 0;
	SYST_RVR = CORE_CLOCK_HZ / TICK_RATE_HZ - 1U;
	SYST_CVR = 0;
	SYST_CSR = SYST_CSR_CLKSOURCE | SYST_CSR_TICKINT | SYST_CSR_ENABLE;
}

void delay_ms(uint32_t ms)
{
	uint32_t start = tick_count;

	while ((uint32_t)(tick_count - start) < ms) {
	}
}

int main(void)
{
	systick_init();

	uint32_t first = tick_count;
	while (tick_count == first) {
	}
	printf("tick ok\n");

	uint32_t start = tick_count;
	delay_ms(100);
	uint32_t elapsed = tick_count - start;
	printf("elapsed %lu ms\n", (unsigned long)elapsed);

	exit(0);
}
