/* LX-4 PWM0 settings: closed-form prescaler choice, all in 64-bit integers. */
#include <stdint.h>
#include "pwm_calc.h"

int pwm_calc(uint32_t freq_hz, uint32_t duty_permille, pwm_regs_t *regs)
{
	if (freq_hz == 0)
		return PWM_ERR_FREQ;

	/* round(CLK / (k f)) <= 65536  <=>  2 CLK < 131073 k f  (k = p + 1),
	 * so the smallest k is floor(2 CLK / (131073 f)) + 1. */
	const uint64_t two_clk = 2ull * PWM_CLK_HZ;
	uint64_t k = two_clk / (131073ull * freq_hz) + 1;

	if (k > PWM_PRESCALER_MAX + 1ull)
		return PWM_ERR_FREQ;			/* too low even at the largest prescaler */

	uint64_t d = k * freq_hz;
	uint32_t ticks = (uint32_t)((two_clk + d) / (2 * d));	/* nearest, halves up */
	if (ticks < PWM_TICKS_MIN)
		return PWM_ERR_FREQ;			/* too high */
	if (duty_permille > PWM_DUTY_MAX)
		return PWM_ERR_DUTY;

	uint32_t cmp = (uint32_t)((2ull * duty_permille * ticks + PWM_DUTY_MAX) / (2ull * PWM_DUTY_MAX));
	*regs = (pwm_regs_t){ .prescaler = (uint32_t)(k - 1), .period = ticks - 1, .compare = cmp };
	return PWM_OK;
}
