/* defect: timer0 is enabled without the interrupt-enable bit (CTRL bit 3), so INTSTATUS is never raised and the polled waits never see a period elapse.
 * breaks: "`void timer0_wait_ms(uint32_t ms)`: return after `ms` timer0 periods."
 * must_fail: L2, ctrl_enables_timer_and_flag
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define TIMER0_BASE      0x40000000UL
#define TIMER0_CTRL      (*(volatile uint32_t *)(TIMER0_BASE + 0x00))
#define TIMER0_VALUE     (*(volatile uint32_t *)(TIMER0_BASE + 0x04))
#define TIMER0_RELOAD    (*(volatile uint32_t *)(TIMER0_BASE + 0x08))
#define TIMER0_INTSTATUS (*(volatile uint32_t *)(TIMER0_BASE + 0x0C))
#define TIMER0_INTCLEAR  TIMER0_INTSTATUS

#define GPIO0_DATAIN     (*(volatile uint32_t *)0x40010000UL)

#define CTRL_ENABLE      0x1UL
#define INT_FLAG         0x1UL

#define PCLK_HZ          25000000UL
#define TICKS_PER_MS     (PCLK_HZ / 1000UL)

void timer0_init_1ms(void)
{
	TIMER0_CTRL = 0;
	TIMER0_RELOAD = TICKS_PER_MS - 1UL;
	TIMER0_VALUE = TICKS_PER_MS - 1UL;
	TIMER0_INTCLEAR = INT_FLAG;
	/* Polled use only: no timer interrupt handler exists. */
	TIMER0_CTRL = CTRL_ENABLE;
}

static void timer0_wait_tick(void)
{
	while ((TIMER0_INTSTATUS & INT_FLAG) == 0U) {
	}
	TIMER0_INTCLEAR = INT_FLAG;
}

void timer0_wait_ms(uint32_t ms)
{
	TIMER0_INTCLEAR = INT_FLAG;
	for (uint32_t i = 0; i < ms; i++) {
		timer0_wait_tick();
	}
}

int wait_bit_set(volatile const uint32_t *reg, uint32_t mask, uint32_t timeout_ms)
{
	uint32_t ticks = 0;

	TIMER0_INTCLEAR = INT_FLAG;
	while ((*reg & mask) == 0U) {
		if (TIMER0_INTSTATUS & INT_FLAG) {
			TIMER0_INTCLEAR = INT_FLAG;
			if (++ticks >= timeout_ms) {
				return ((*reg & mask) != 0U) ? 0 : -1;
			}
		}
	}
	return 0;
}

int main(void)
{
	timer0_init_1ms();
	printf("timer0 reload %lu\n", (unsigned long)TIMER0_RELOAD);

	timer0_wait_ms(50);
	printf("waited 50 ms\n");

	if (wait_bit_set(&GPIO0_DATAIN, 0x1UL, 20) == 0) {
		printf("button pressed\n");
	} else {
		printf("button timeout after 20 ms\n");
	}

	exit(0);
}
