#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/drivers/pwm.h>

static const struct pwm_dt_spec pwm_led = PWM_DT_SPEC_GET(DT_ALIAS(pwm_led0));

static const uint32_t period_ns = PWM_MSEC(1);

int main(void)
{
	int step = 0;
	int dir = 1;

	if (!device_is_ready(pwm_led.dev)) {
		return -ENODEV;
	}
	printk("pwm fade ready\n");

	for (;;) {
		uint32_t width = MIN(period_ns, (period_ns / 50U) * (uint32_t)step);
		int err = pwm_set_dt(&pwm_led, period_ns, width);

		if (err) {
			printk("duty update failed (%d)\n", err);
			return err;
		}

		step += dir;
		if (step == 50 || step == 0) {
			dir = -dir;
		}
		k_msleep(20);
	}
}
