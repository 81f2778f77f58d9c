#include <stdint.h>
#include <stdio.h>

#define TMR0_BASE      0x40000000u
#define TMR0_CTRL      (*(volatile uint32_t *)(TMR0_BASE + 0x0u))
#define TMR0_VALUE     (*(volatile uint32_t *)(TMR0_BASE + 0x4u))
#define TMR0_RELOAD    (*(volatile uint32_t *)(TMR0_BASE + 0x8u))
#define TMR0_INTCLEAR  (*(volatile uint32_t *)(TMR0_BASE + 0xCu))

void timer0_init_1ms(void)
{
	TMR0_CTRL = 0u;
	TMR0_RELOAD = 24999u;
	TMR0_VALUE = 24999u;
	TMR0_INTCLEAR = 1u;
	TMR0_CTRL = 0x9u;
}

void timer0_wait_ms(uint32_t ms)
{
	while (ms > 0u) {
		while ((TMR0_INTCLEAR & 1u) == 0u) {
		}
		TMR0_INTCLEAR = 1u;
		ms--;
	}
}

int wait_bit_set(volatile const uint32_t *reg, uint32_t mask, uint32_t timeout_ms)
{
	for (;;) {
		if (*reg & mask)
			return 0;
		if (TMR0_INTCLEAR & 1u) {
			TMR0_INTCLEAR = 1u;
			if (timeout_ms-- == 0u)
				return -1;
		}
	}
}

int main(void)
{
	timer0_init_1ms();
	printf("timer0 reload %u\n", (unsigned)TMR0_RELOAD);
	timer0_wait_ms(50u);
	puts("waited 50 ms");
	int rc = wait_bit_set((volatile const uint32_t *)0x40010000u, 0x1u, 20u);
	puts(rc < 0 ? "button timeout after 20 ms" : "button pressed");
	return 0;
}
