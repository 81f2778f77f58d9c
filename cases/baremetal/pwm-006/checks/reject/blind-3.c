/* defect: PRESCALER and PERIOD are stored into *regs before the duty is checked, so a duty above 1000 returns -2 with *regs already partly written
 * breaks: "On success all three fields of `*regs` are written and the function returns 0 (`PWM_OK`). On an error `*regs` is not written at all."
 * must_fail: scenario_errors_leave_regs_alone
 */
#include <stdint.h>
#include "pwm_calc.h"

#define TWO_CLK          (2ull * PWM_CLK_HZ)
#define TWICE_MAX_PLUS1  (2ull * PWM_TICKS_MAX + 1ull)

int pwm_calc(uint32_t freq_hz, uint32_t duty_permille, pwm_regs_t *regs)
{
	if (freq_hz == 0)
		return PWM_ERR_FREQ;

	uint64_t p = TWO_CLK / (TWICE_MAX_PLUS1 * freq_hz);
	if (p > PWM_PRESCALER_MAX)
		return PWM_ERR_FREQ;

	uint32_t div = ((uint32_t)p + 1u) * freq_hz;
	uint32_t ticks = (PWM_CLK_HZ + div / 2u) / div;

	if (ticks < PWM_TICKS_MIN)
		return PWM_ERR_FREQ;

	regs->prescaler = (uint32_t)p;
	regs->period    = ticks - 1u;

	if (duty_permille > PWM_DUTY_MAX)
		return PWM_ERR_DUTY;

	regs->compare = (duty_permille * ticks + PWM_DUTY_MAX / 2u) / PWM_DUTY_MAX;
	return PWM_OK;
}
