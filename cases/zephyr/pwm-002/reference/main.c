#include <zephyr/kernel.h>
#include <zephyr/drivers/pwm.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>

#define SERVO_PERIOD  PWM_MSEC(20)
#define SERVO_MIN     PWM_USEC(1000)
#define SERVO_MAX     PWM_USEC(2000)
#define SERVO_CENTRE  PWM_USEC(1500)
#define SERVO_STEP    PWM_USEC(10)

static const struct pwm_dt_spec servo = PWM_DT_SPEC_GET(DT_ALIAS(pwm_servo0));

int main(void)
{
	uint32_t pulse = SERVO_CENTRE;
	int32_t step = SERVO_STEP;
	int ret;

	if (!pwm_is_ready_dt(&servo)) {
		printk("PWM device %s not ready\n", servo.dev->name);
		return -ENODEV;
	}

	printk("servo ready\n");

	while (1) {
		ret = pwm_set_dt(&servo, SERVO_PERIOD, CLAMP(pulse, SERVO_MIN, SERVO_MAX));
		if (ret < 0) {
			printk("servo update failed: %d\n", ret);
			return ret;
		}

		if ((step > 0 && pulse >= SERVO_MAX) || (step < 0 && pulse <= SERVO_MIN)) {
			step = -step;
		}
		pulse += step;

		k_sleep(K_MSEC(20));
	}
	return 0;
}
