/* defect: the return value of pwm_set_dt() is discarded, so a failing duty-cycle update is silently ignored and the fade loop keeps running.
 * breaks: "If the PWM device is not usable or setting the duty cycle fails, `main` must stop with the error."
 * must_fail: pwm_set_result_checked
 */
#include <errno.h>
#include <stdio.h>
#include <zephyr/kernel.h>
#include <zephyr/drivers/pwm.h>

#define LED_NODE        DT_ALIAS(pwm_led0)
#define PERIOD_NS       PWM_MSEC(1)
#define FADE_STEPS      50
#define STEP_INTERVAL   K_MSEC(20)

static const struct pwm_dt_spec led = PWM_DT_SPEC_GET(LED_NODE);

static void apply_step(int n)
{
	uint32_t pulse = (uint32_t)(((uint64_t)PERIOD_NS * (uint32_t)n) / FADE_STEPS);

	pwm_set_dt(&led, PERIOD_NS, pulse);
	k_sleep(STEP_INTERVAL);
}

int main(void)
{
	if (!pwm_is_ready_dt(&led)) {
		printf("PWM controller not ready\n");
		return -ENODEV;
	}

	printf("pwm fade ready\n");

	for (;;) {
		for (int n = 0; n < FADE_STEPS; n++) {
			apply_step(n);
		}
		for (int n = FADE_STEPS; n > 0; n--) {
			apply_step(n);
		}
	}

	return 0;
}
