#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define SCS_BASE 0xE000E000UL
#define SYST_CSR (*(volatile uint32_t *)(SCS_BASE + 0x10UL))
#define SYST_RVR (*(volatile uint32_t *)(SCS_BASE + 0x14UL))
#define SYST_CVR (*(volatile uint32_t *)(SCS_BASE + 0x18UL))

volatile uint32_t uptime_ms = 0;

void SysTick_Handler(void)
{
	uptime_ms += 1;
}

static uint32_t millis(void)
{
	return uptime_ms;
}

int main(void)
{
	uint32_t reload = 25000000UL / 1000UL - 1UL;
	const uint32_t target = 10;

	SYST_RVR = reload;
	SYST_CVR = 0;
	SYST_CSR = 7;
	while (millis() < target) {
		__asm__ volatile ("wfi" ::: "memory");
	}
	puts("ticks >= 10");
	puts("done");
	exit(0);
}
