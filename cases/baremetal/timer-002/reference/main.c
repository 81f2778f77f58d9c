#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define PCLK_HZ 25000000U

typedef struct {
	volatile uint32_t CTRL;
	volatile uint32_t VALUE;
	volatile uint32_t RELOAD;
	volatile uint32_t INTSTATUS;
} cmsdk_timer_t;

#define TIMER0 ((cmsdk_timer_t *)0x40000000UL)
#define GPIO0_DATA (*(volatile const uint32_t *)0x40010000UL)

#define TIMER_CTRL_EN    (1U << 0)
#define TIMER_CTRL_IRQEN (1U << 3)
#define TIMER_INT_FLAG   (1U << 0)

void timer0_init_1ms(void)
{
	TIMER0->CTRL = 0;
	TIMER0->RELOAD = PCLK_HZ / 1000U - 1U;
	TIMER0->INTSTATUS = TIMER_INT_FLAG;
	TIMER0->CTRL = TIMER_CTRL_EN | TIMER_CTRL_IRQEN;
}

static int timer0_period_elapsed(void)
{
	if ((TIMER0->INTSTATUS & TIMER_INT_FLAG) == 0U) {
		return 0;
	}
	TIMER0->INTSTATUS = TIMER_INT_FLAG;
	return 1;
}

void timer0_wait_ms(uint32_t ms)
{
	uint32_t done = 0;

	while (done < ms) {
		done += (uint32_t)timer0_period_elapsed();
	}
}

int wait_bit_set(volatile const uint32_t *reg, uint32_t mask, uint32_t timeout_ms)
{
	uint32_t waited = 0;

	while ((*reg & mask) == 0U) {
		if (waited >= timeout_ms) {
			return -1;
		}
		waited += (uint32_t)timer0_period_elapsed();
	}
	return 0;
}

int main(void)
{
	timer0_init_1ms();
	printf("timer0 reload %lu\n", (unsigned long)TIMER0->RELOAD);

	timer0_wait_ms(50);
	printf("waited 50 ms\n");

	if (wait_bit_set(&GPIO0_DATA, 1U << 0, 20) != 0) {
		printf("button timeout after 20 ms\n");
	} else {
		printf("button pressed\n");
	}
	exit(0);
}
