#include <stdbool.h>
#include <zephyr/kernel.h>
#include <zephyr/drivers/pwm.h>
#include <zephyr/sys/printk.h>

#define FADE_PERIOD PWM_USEC(1000)
#define FADE_STEPS  50U
#define FADE_STEP   (FADE_PERIOD / FADE_STEPS)

static const struct pwm_dt_spec led = PWM_DT_SPEC_GET(DT_ALIAS(pwm_led0));

int main(void)
{
	uint32_t pulse = 0;
	bool rising = true;
	int ret;

	if (!pwm_is_ready_dt(&led)) {
		printk("PWM device %s not ready\n", led.dev->name);
		return -ENODEV;
	}

	printk("pwm fade ready\n");

	while (1) {
		ret = pwm_set_dt(&led, FADE_PERIOD, pulse);
		if (ret < 0) {
			printk("pwm_set_dt failed: %d\n", ret);
			return ret;
		}

		if (rising) {
			pulse += FADE_STEP;
			if (pulse >= FADE_PERIOD) {
				pulse = FADE_PERIOD;
				rising = false;
			}
		} else if (pulse > FADE_STEP) {
			pulse -= FADE_STEP;
		} else {
			pulse = 0;
			rising = true;
		}

		k_sleep(K_MSEC(20));
	}
	return 0;
}
