/* timer0 as a polled millisecond clock: one software tick per INTSTATUS event. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum tmr_reg_offset {
	TMR_CTRL_OFS      = 0x00u,
	TMR_VALUE_OFS     = 0x04u,
	TMR_RELOAD_OFS    = 0x08u,
	TMR_INTSTATUS_OFS = 0x0Cu,
};

enum {
	CTRL_ENABLE     = 0x1u,
	CTRL_IRQ_ENABLE = 0x8u,
	EVENT_FLAG      = 0x1u,
};

#define TICKS_PER_MS (25000000u / 1000u)

static inline volatile uint32_t *tmr0(uint32_t offset)
{
	return (volatile uint32_t *)(0x40000000u + offset);
}

static struct {
	uint32_t now_ms;
} clk;

static void clock_service(void)
{
	volatile uint32_t *flag = tmr0(TMR_INTSTATUS_OFS);

	if (*flag & EVENT_FLAG) {
		*tmr0(TMR_INTSTATUS_OFS) = EVENT_FLAG;
		clk.now_ms++;
	}
}

int wait_bit_set(volatile const uint32_t *reg, uint32_t mask, uint32_t timeout_ms)
{
	const uint32_t start = clk.now_ms;

	for (;;) {
		if ((*reg & mask) != 0u)
			return 0;
		if (clk.now_ms - start >= timeout_ms)
			return -1;
		clock_service();
	}
}

void timer0_wait_ms(uint32_t ms)
{
	const uint32_t start = clk.now_ms;

	while (clk.now_ms - start < ms)
		clock_service();
}

void timer0_init_1ms(void)
{
	*tmr0(TMR_CTRL_OFS) = 0u;
	*tmr0(TMR_RELOAD_OFS) = TICKS_PER_MS - 1u;
	*tmr0(TMR_VALUE_OFS) = TICKS_PER_MS - 1u;
	*tmr0(TMR_INTSTATUS_OFS) = EVENT_FLAG;
	*tmr0(TMR_CTRL_OFS) = CTRL_ENABLE | CTRL_IRQ_ENABLE;
	clk.now_ms = 0u;
}

int main(void)
{
	timer0_init_1ms();
	printf("timer0 reload %u\n", (unsigned int)*tmr0(TMR_RELOAD_OFS));

	timer0_wait_ms(50u);
	fputs("waited 50 ms\n", stdout);

	const int status = wait_bit_set((volatile const uint32_t *)0x40010000u, 1u, 20u);
	fputs(status == 0 ? "button pressed\n" : "button timeout after 20 ms\n", stdout);
	exit(EXIT_SUCCESS);
}
