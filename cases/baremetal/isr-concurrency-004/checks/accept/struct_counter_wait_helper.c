#include <stdint.h>
#include <stdio.h>

#define SysTick_CTRL_ENABLE_Msk    0x1UL
#define SysTick_CTRL_TICKINT_Msk   0x2UL
#define SysTick_CTRL_CLKSOURCE_Msk 0x4UL

enum { TICKS_TO_WAIT = 10 };

static struct {
	volatile uint32_t count;
} systick_state;

static int systick_config(uint32_t ticks)
{
	volatile uint32_t *const syst_csr = (volatile uint32_t *)0xE000E010UL;
	volatile uint32_t *const syst_rvr = (volatile uint32_t *)0xE000E014UL;
	volatile uint32_t *const syst_cvr = (volatile uint32_t *)0xE000E018UL;

	if ((ticks - 1UL) > 0xFFFFFFUL) {
		return 1;
	}
	*syst_rvr = ticks - 1UL;
	*syst_cvr = 0UL;
	*syst_csr = SysTick_CTRL_CLKSOURCE_Msk | SysTick_CTRL_TICKINT_Msk | SysTick_CTRL_ENABLE_Msk;
	return 0;
}

void SysTick_Handler(void)
{
	systick_state.count++;
}

static void wait_ticks(uint32_t n)
{
	const uint32_t start = systick_state.count;

	while (1) {
		if ((uint32_t)(systick_state.count - start) >= n) {
			break;
		}
		__asm volatile("wfi");
	}
}

int main(void)
{
	if (systick_config(25000000UL / 1000UL) != 0) {
		return 1;
	}
	wait_ticks(TICKS_TO_WAIT);
	printf("ticks >= 10\n");
	printf("done\n");
	return 0;
}
