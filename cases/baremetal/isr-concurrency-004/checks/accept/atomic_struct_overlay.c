#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
	volatile uint32_t CTRL;
	volatile uint32_t LOAD;
	volatile uint32_t VAL;
	volatile const uint32_t CALIB;
} systick_regs_t;

#define SYSTICK ((systick_regs_t *)0xE000E010u)

#define CPU_HZ 25000000u

static _Atomic uint32_t ms_ticks;

void SysTick_Handler(void)
{
	atomic_fetch_add_explicit(&ms_ticks, 1u, memory_order_relaxed);
}

static uint32_t ticks_now(void)
{
	return atomic_load_explicit(&ms_ticks, memory_order_relaxed);
}

static void systick_start(uint32_t cycles_per_tick)
{
	SYSTICK->CTRL = 0u;
	SYSTICK->LOAD = cycles_per_tick - 1u;
	SYSTICK->VAL = 0u;
	SYSTICK->CTRL |= 1u << 2;                /* processor clock */
	SYSTICK->CTRL |= (1u << 1) | (1u << 0);  /* interrupt + counter */
}

int main(void)
{
	uint32_t t0 = ticks_now();

	systick_start(CPU_HZ / 1000u);
	for (;;) {
		if (ticks_now() - t0 >= 10u) {
			break;
		}
		__asm volatile ("wfi" ::: "memory");
	}
	puts("ticks >= 10");
	puts("done");
	return 0;
}
