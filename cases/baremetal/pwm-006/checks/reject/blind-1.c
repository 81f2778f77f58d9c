/* defect: the rounded division is done as (2*clk + d) / (2*d) in 32 bits, so 2*d wraps for frequencies >= 2^31 and some absurd frequencies produce a "valid" result instead of -1
 * breaks: "The frequency cannot be produced, and `pwm_calc()` returns -1 (`PWM_ERR_FREQ`), when `freq_hz` is 0, when no `p` in 0 … 127 gives at most 65536 ticks (too low), or when the chosen `p` gives fewer than 2 ticks (too high: PERIOD would be 0)."
 * must_fail: scenario_hostile_frequencies
 */
#include <stdint.h>
#include "pwm_calc.h"

/* a / b rounded to nearest, a half rounded up (b != 0). */
static uint32_t div_round(uint32_t a, uint32_t b)
{
	return (2u * a + b) / (2u * b);
}

int pwm_calc(uint32_t freq_hz, uint32_t duty_permille, pwm_regs_t *regs)
{
	uint32_t p;
	uint32_t ticks = 0;
	int found = 0;

	if (freq_hz == 0u) {
		return PWM_ERR_FREQ;
	}

	for (p = 0u; p <= PWM_PRESCALER_MAX; p++) {
		ticks = div_round(PWM_CLK_HZ, (p + 1u) * freq_hz);
		if (ticks <= PWM_TICKS_MAX) {
			found = 1;
			break;
		}
	}

	if (!found) {
		return PWM_ERR_FREQ;
	}
	if (ticks < PWM_TICKS_MIN) {
		return PWM_ERR_FREQ;
	}
	if (duty_permille > PWM_DUTY_MAX) {
		return PWM_ERR_DUTY;
	}

	regs->prescaler = p;
	regs->period = ticks - 1u;
	regs->compare = div_round(duty_permille * ticks, PWM_DUTY_MAX);
	return PWM_OK;
}
