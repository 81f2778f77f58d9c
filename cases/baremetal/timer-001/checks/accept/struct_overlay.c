#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
	volatile uint32_t CTRL;
	volatile uint32_t LOAD;
	volatile uint32_t VAL;
	volatile const uint32_t CALIB;
} systick_regs_t;

#define SYSTICK ((systick_regs_t *)0xE000E010u)

volatile uint32_t g_ms;

void SysTick_Handler(void)
{
	g_ms += 1u;
}

void delay_ms(uint32_t ms)
{
	const uint32_t t0 = g_ms;

	while ((g_ms - t0) < ms) {
		__asm volatile("nop");
	}
}

int main(void)
{
	SYSTICK->CTRL = 0u;
	SYSTICK->LOAD = (25000000u / 1000u) - 1u;
	SYSTICK->VAL = 0u;
	SYSTICK->CTRL = 0x7u;

	while (g_ms == 0u) {
	}
	puts("tick ok");

	uint32_t before = g_ms;
	delay_ms(100u);
	printf("elapsed %u ms\n", (unsigned)(g_ms - before));
	return 0;
}
