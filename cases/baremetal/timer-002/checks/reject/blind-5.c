/* defect: the timer registers are accessed through a non-volatile pointer, so the compiler folds the INTSTATUS polling into the value it just wrote and timer0_wait_ms returns at once instead of waiting for the flag.
 * breaks: "`void timer0_wait_ms(uint32_t ms)`: return after `ms` timer0 periods."
 * must_fail: timer_registers_volatile
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
	uint32_t CTRL;
	uint32_t VALUE;
	uint32_t RELOAD;
	uint32_t INTSTATUS; /* write: INTCLEAR */
} timer_regs_t;

#define TIMER0       ((timer_regs_t *)0x40000000UL)
#define GPIO0_DATA   ((volatile const uint32_t *)0x40010000UL)

#define CTRL_EN      (1U << 0)
#define CTRL_INTEN   (1U << 3)
#define INT_FLAG     (1U << 0)

#define PCLK_HZ      25000000U

void timer0_init_1ms(void)
{
	TIMER0->CTRL = 0;
	TIMER0->RELOAD = PCLK_HZ / 1000U - 1U;
	TIMER0->VALUE = PCLK_HZ / 1000U - 1U;
	TIMER0->INTSTATUS = INT_FLAG;
	TIMER0->CTRL = CTRL_EN | CTRL_INTEN;
}

void timer0_wait_ms(uint32_t ms)
{
	TIMER0->INTSTATUS = INT_FLAG;
	while (ms--) {
		while ((TIMER0->INTSTATUS & INT_FLAG) == 0U) {
		}
		TIMER0->INTSTATUS = INT_FLAG;
	}
}

int wait_bit_set(volatile const uint32_t *reg, uint32_t mask, uint32_t timeout_ms)
{
	uint32_t elapsed = 0;

	TIMER0->INTSTATUS = INT_FLAG;
	while (elapsed < timeout_ms) {
		if ((*reg & mask) != 0U) {
			return 0;
		}
		if ((TIMER0->INTSTATUS & INT_FLAG) != 0U) {
			TIMER0->INTSTATUS = INT_FLAG;
			elapsed++;
		}
	}
	return ((*reg & mask) != 0U) ? 0 : -1;
}

int main(void)
{
	timer0_init_1ms();
	printf("timer0 reload %lu\n", (unsigned long)TIMER0->RELOAD);

	timer0_wait_ms(50);
	printf("waited 50 ms\n");

	if (wait_bit_set(GPIO0_DATA, 1U, 20) == 0) {
		printf("button pressed\n");
	} else {
		printf("button timeout after 20 ms\n");
	}

	exit(0);
}
