/* defect: RELOAD is written with 25000 instead of 24999, so each period is 25001 clock cycles and the event is flagged slightly less than once per millisecond.
 * breaks: "`void timer0_init_1ms(void)`: make timer0 flag an event exactly once per millisecond, counting the peripheral clock."
 * must_fail: L2, reload_value_1ms
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define PCLK_HZ 25000000UL

typedef struct {
	volatile uint32_t CTRL;      /* 0x00 */
	volatile uint32_t VALUE;     /* 0x04 */
	volatile uint32_t RELOAD;    /* 0x08 */
	volatile uint32_t INTSTATUS; /* 0x0C read: INTSTATUS, write: INTCLEAR */
} cmsdk_timer_t;

#define TIMER0 ((cmsdk_timer_t *)0x40000000UL)
#define GPIO0_DATA (*(volatile const uint32_t *)0x40010000UL)

#define TIMER_CTRL_EN   (1UL << 0)
#define TIMER_CTRL_IRQEN (1UL << 3)
#define TIMER_INT_FLAG  (1UL << 0)

void timer0_init_1ms(void)
{
	const uint32_t reload = (uint32_t)(PCLK_HZ / 1000UL);

	TIMER0->CTRL = 0;
	TIMER0->RELOAD = reload;
	TIMER0->VALUE = reload;
	TIMER0->INTSTATUS = TIMER_INT_FLAG;
	/* Interrupt enable only gates the flag; the NVIC line stays disabled. */
	TIMER0->CTRL = TIMER_CTRL_EN | TIMER_CTRL_IRQEN;
}

static int timer0_period_elapsed(void)
{
	if (TIMER0->INTSTATUS & TIMER_INT_FLAG) {
		TIMER0->INTSTATUS = TIMER_INT_FLAG;
		return 1;
	}
	return 0;
}

void timer0_wait_ms(uint32_t ms)
{
	TIMER0->INTSTATUS = TIMER_INT_FLAG;
	while (ms > 0U) {
		if (timer0_period_elapsed()) {
			ms--;
		}
	}
}

int wait_bit_set(volatile const uint32_t *reg, uint32_t mask, uint32_t timeout_ms)
{
	uint32_t elapsed = 0;

	TIMER0->INTSTATUS = TIMER_INT_FLAG;
	for (;;) {
		if ((*reg & mask) != 0U) {
			return 0;
		}
		if (elapsed >= timeout_ms) {
			return -1;
		}
		if (timer0_period_elapsed()) {
			elapsed++;
		}
	}
}

int main(void)
{
	timer0_init_1ms();
	printf("timer0 reload %lu\n", (unsigned long)TIMER0->RELOAD);

	timer0_wait_ms(50);
	printf("waited 50 ms\n");

	if (wait_bit_set(&GPIO0_DATA, 1UL << 0, 20) != 0) {
		printf("button timeout after 20 ms\n");
	} else {
		printf("button pressed\n");
	}

	exit(0);
}
