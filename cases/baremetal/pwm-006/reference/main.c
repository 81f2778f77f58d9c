/*
 * LX-4 lamp driver: PWM0 register values for a frequency and a duty.
 * Integer arithmetic only; 64-bit intermediates so that any uint32_t
 * frequency or duty is handled without overflow.
 */
#include <stdint.h>
#include "pwm_calc.h"

/* num / den rounded to nearest, a half up; den > 0. */
static uint64_t div_round(uint64_t num, uint64_t den)
{
	return (num + den / 2u) / den;
}

int pwm_calc(uint32_t freq_hz, uint32_t duty_permille, pwm_regs_t *regs)
{
	uint64_t ticks = 0;
	uint32_t p;

	if (freq_hz == 0u) {
		return PWM_ERR_FREQ;
	}
	for (p = 0; p <= PWM_PRESCALER_MAX; p++) {
		ticks = div_round(PWM_CLK_HZ, (uint64_t)(p + 1u) * freq_hz);
		if (ticks <= PWM_TICKS_MAX) {
			break;
		}
	}
	if (p > PWM_PRESCALER_MAX || ticks < PWM_TICKS_MIN) {
		return PWM_ERR_FREQ;
	}
	if (duty_permille > PWM_DUTY_MAX) {
		return PWM_ERR_DUTY;
	}
	regs->prescaler = p;
	regs->period = (uint32_t)(ticks - 1u);
	regs->compare = (uint32_t)div_round((uint64_t)duty_permille * ticks, PWM_DUTY_MAX);
	return PWM_OK;
}
