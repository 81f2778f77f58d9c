#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/drivers/pwm.h>

static const struct pwm_dt_spec servo = PWM_DT_SPEC_GET(DT_ALIAS(pwm_servo0));

#define MIN_PULSE_US 1000U
#define MAX_PULSE_US 2000U

int main(void)
{
	uint32_t us = 1500U;
	bool up = true;

	if (!device_is_ready(servo.dev)) {
		return -ENODEV;
	}
	printk("servo ready\n");

	for (;;) {
		uint32_t width = MAX(MIN_PULSE_US, MIN(us, MAX_PULSE_US));
		int err = pwm_set_dt(&servo, PWM_MSEC(20), PWM_USEC(width));

		if (err) {
			printk("pwm_set_dt: %d\n", err);
			return err;
		}

		if (up) {
			us += 10U;
			if (us >= MAX_PULSE_US) {
				up = false;
			}
		} else {
			us -= 10U;
			if (us <= MIN_PULSE_US) {
				up = true;
			}
		}
		k_msleep(20);
	}
}
