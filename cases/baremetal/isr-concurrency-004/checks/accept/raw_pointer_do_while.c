#include <stdio.h>
#include <stdlib.h>

#define STK_CTRL  (*(volatile unsigned long *)0xE000E010)
#define STK_LOAD  (*(volatile unsigned long *)0xE000E014)
#define STK_VAL   (*(volatile unsigned long *)0xE000E018)

#define RELOAD_1MS ((25000000UL / 1000UL) - 1UL)

unsigned int volatile tick;

void SysTick_Handler(void)
{
	tick = tick + 1;
}

int main(void)
{
	STK_LOAD = RELOAD_1MS;
	STK_VAL = 0;
	STK_CTRL = 0x7;

	do {
		__asm__ __volatile__("wfi");
	} while (tick <= 9);

	printf("ticks >= %d\n", 10);
	printf("done\n");
	exit(EXIT_SUCCESS);
}
