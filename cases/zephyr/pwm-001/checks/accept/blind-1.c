#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/drivers/pwm.h>
#include <zephyr/sys/printk.h>

#define PWM_PERIOD_NS   PWM_MSEC(1)
#define NUM_STEPS       50U
#define STEP_DELAY_MS   20

static const struct pwm_dt_spec pwm_led = PWM_DT_SPEC_GET(DT_ALIAS(pwm_led0));

int main(void)
{
	const uint32_t step = PWM_PERIOD_NS / NUM_STEPS;
	uint32_t pulse = 0U;
	bool rising = true;
	int ret;

	if (!pwm_is_ready_dt(&pwm_led)) {
		printk("Error: PWM device %s is not ready\n", pwm_led.dev->name);
		return -ENODEV;
	}

	printk("pwm fade ready\n");

	while (1) {
		ret = pwm_set_dt(&pwm_led, PWM_PERIOD_NS, pulse);
		if (ret < 0) {
			printk("Error %d: failed to set pulse width %u\n", ret, pulse);
			return ret;
		}

		if (rising) {
			pulse += step;
			if (pulse >= PWM_PERIOD_NS) {
				pulse = PWM_PERIOD_NS;
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
