/* defect: the period is given as 1000 in a nanosecond API (pwm_set_dt takes ns), so the PWM period is 1 us instead of 1 ms.
 * breaks: "Use a fixed PWM period of 1 ms."
 * must_fail: period_in_time_units
 */
#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/drivers/pwm.h>
#include <zephyr/sys/printk.h>

#define PWM_PERIOD      1000U
#define NUM_STEPS       50U
#define STEP_DELAY_MS   20

static const struct pwm_dt_spec pwm_led = PWM_DT_SPEC_GET(DT_ALIAS(pwm_led0));

int main(void)
{
	const uint32_t step = PWM_PERIOD / NUM_STEPS;
	uint32_t pulse = 0U;
	bool rising = true;
	int ret;

	if (!pwm_is_ready_dt(&pwm_led)) {
		printk("Error: PWM device %s is not ready\n", pwm_led.dev->name);
		return -ENODEV;
	}

	printk("pwm fade ready\n");

	while (1) {
		ret = pwm_set_dt(&pwm_led, PWM_PERIOD, pulse);
		if (ret < 0) {
			printk("Error %d: failed to set pulse width %u\n", ret, pulse);
			return ret;
		}

		if (rising) {
			pulse += step;
			if (pulse >= PWM_PERIOD) {
				pulse = PWM_PERIOD;
				rising = false;
			}
		} else {
			if (pulse <= step) {
				pulse = 0U;
				rising = true;
			} else {
				pulse -= step;
			}
		}

		k_msleep(STEP_DELAY_MS);
	}

	return 0;
}
