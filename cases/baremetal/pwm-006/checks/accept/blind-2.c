#include <stdint.h>
#include "pwm_calc.h"

/*
 * Closed form for the prescaler.
 *
 * ticks(p) = round(CLK / ((p + 1) * f)) <= 65536
 *   <=> CLK / ((p + 1) * f) < 65536.5
 *   <=> (p + 1) * f * 131073 > 2 * CLK
 * so the smallest p is floor(2 * CLK / (131073 * f)).
 */
#define TWO_CLK          (2ull * PWM_CLK_HZ)             /* 33 554 432 */
#define TWICE_MAX_PLUS1  (2ull * PWM_TICKS_MAX + 1ull)   /* 131 073 */

int pwm_calc(uint32_t freq_hz, uint32_t duty_permille, pwm_regs_t *regs)
{
	if (freq_hz == 0)
		return PWM_ERR_FREQ;

	uint64_t p = TWO_CLK / (TWICE_MAX_PLUS1 * freq_hz);
	if (p > PWM_PRESCALER_MAX)
		return PWM_ERR_FREQ;            /* frequency too low */

	/* p > 0 only when freq_hz < 256, so (p + 1) * freq_hz < 2^15 here;
	 * with p == 0 the divisor is freq_hz itself. */
	uint32_t div = ((uint32_t)p + 1u) * freq_hz;
	/* CLK + div/2 <= 2^24 + 2^31: no 32-bit overflow */
	uint32_t ticks = (PWM_CLK_HZ + div / 2u) / div;

	if (ticks < PWM_TICKS_MIN)
		return PWM_ERR_FREQ;            /* frequency too high */

	if (duty_permille > PWM_DUTY_MAX)
		return PWM_ERR_DUTY;

	/* duty <= 1000 and ticks <= 65536: product below 2^26 */
	uint32_t compare = (duty_permille * ticks + PWM_DUTY_MAX / 2u) / PWM_DUTY_MAX;

	regs->prescaler = (uint32_t)p;
	regs->period    = ticks - 1u;
	regs->compare   = compare;
	return PWM_OK;
}
