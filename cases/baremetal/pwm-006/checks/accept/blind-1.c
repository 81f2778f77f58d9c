/*
 * main.c - PWM0 register values of the LX-4 lamp driver.
 */
#include <stdint.h>
#include "pwm_calc.h"

/* a / b rounded to nearest, a half rounded up (b != 0). 64-bit so that
 * hostile 32-bit inputs cannot overflow. */
static uint64_t div_round_u64(uint64_t a, uint64_t b)
{
	return (2u * a + b) / (2u * b);
}

/* Rounded tick count of one PWM period for prescaler p. */
static uint64_t ticks_for(uint32_t p, uint32_t freq_hz)
{
	return div_round_u64(PWM_CLK_HZ, (uint64_t)(p + 1u) * freq_hz);
}

int pwm_calc(uint32_t freq_hz, uint32_t duty_permille, pwm_regs_t *regs)
{
	uint32_t p;
	uint64_t ticks = 0;
	int found = 0;

	if (freq_hz == 0u) {
		return PWM_ERR_FREQ;
	}

	/* ticks(p) only decreases as p grows: the first fit is the smallest p */
	for (p = 0u; p <= PWM_PRESCALER_MAX; p++) {
		ticks = ticks_for(p, freq_hz);
		if (ticks <= PWM_TICKS_MAX) {
			found = 1;
			break;
		}
	}

	if (!found) {
		return PWM_ERR_FREQ;          /* too low even at the largest prescaler */
	}
	if (ticks < PWM_TICKS_MIN) {
		return PWM_ERR_FREQ;          /* too high: PERIOD would be 0 */
	}
	if (duty_permille > PWM_DUTY_MAX) {
		return PWM_ERR_DUTY;
	}

	regs->prescaler = p;
	regs->period = (uint32_t)ticks - 1u;
	regs->compare = (uint32_t)div_round_u64((uint64_t)duty_permille * ticks,
						PWM_DUTY_MAX);
	return PWM_OK;
}
