/* defect: the period fit test uses ticks < 65536, so a tick count of exactly 65536 (PERIOD 65535) is refused: 256 Hz gets PRESCALER 1 and 2 Hz is reported as impossible
 * breaks: "PRESCALER is the **smallest** `p` in 0 … 127 for which `ticks(p)` is at most 65536, and PERIOD is `ticks(p) - 1` for that `p`."
 * must_fail: scenario_period_limit_65536_ticks, scenario_lowest_frequency
 */
#include <stdint.h>
#include "pwm_calc.h"

#define PERIOD_REG_MAX   0xFFFFu   /* 16-bit PERIOD register */

static uint64_t div_round_u64(uint64_t a, uint64_t b)
{
	return (a + b / 2u) / b;
}

int pwm_calc(uint32_t freq_hz, uint32_t duty_permille, pwm_regs_t *regs)
{
	uint32_t p;
	uint64_t ticks = 0;

	if (freq_hz == 0u) {
		return PWM_ERR_FREQ;
	}

	for (p = 0u; p <= PWM_PRESCALER_MAX; p++) {
		ticks = div_round_u64(PWM_CLK_HZ, (uint64_t)(p + 1u) * freq_hz);
		if (ticks <= PERIOD_REG_MAX) {
			break;
		}
	}

	if (p > PWM_PRESCALER_MAX) {
		return PWM_ERR_FREQ;
	}
	if (ticks < PWM_TICKS_MIN) {
		return PWM_ERR_FREQ;
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
