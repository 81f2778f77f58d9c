/* defect: the pulse is never clamped before pwm_set_dt and the end-stop test uses > / <, so the sweep writes 2010 us and 990 us pulses before reversing.
 * breaks: "A pulse outside 1–2 ms drives the servo into its mechanical stop and can strip its gears, so no update may ever leave that range, whatever the sweep arithmetic computes."
 * must_fail: pulse_clamped_to_servo_range
 */

#include <errno.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/drivers/pwm.h>
#include <zephyr/sys/printk.h>

#define SERVO_NODE DT_ALIAS(pwm_servo0)

#if !DT_NODE_EXISTS(SERVO_NODE)
#error "Unsupported board: pwm-servo0 devicetree alias is not defined"
#endif

/* Controller, channel and polarity flags all come from the devicetree */
static const struct pwm_dt_spec servo = PWM_DT_SPEC_GET(SERVO_NODE);

#define SERVO_PERIOD_NS  PWM_MSEC(20)
#define SERVO_MIN_NS     ((int32_t)PWM_USEC(1000))
#define SERVO_MAX_NS     ((int32_t)PWM_USEC(2000))
#define SERVO_CENTER_NS  ((int32_t)PWM_USEC(1500))
#define SERVO_STEP_NS    ((int32_t)PWM_USEC(10))
#define SERVO_UPDATE_MS  20

static int servo_write(int32_t pulse_ns)
{
	return pwm_set_dt(&servo, SERVO_PERIOD_NS, (uint32_t)pulse_ns);
}

int main(void)
{
	int32_t pulse = SERVO_CENTER_NS;
	int32_t step = SERVO_STEP_NS;
	int ret;

	if (!pwm_is_ready_dt(&servo)) {
		printk("PWM device %s is not ready\n", servo.dev->name);
		return -ENODEV;
	}

	printk("servo ready\n");

	ret = servo_write(pulse);
	if (ret < 0) {
		printk("pwm_set_dt failed: %d\n", ret);
		return ret;
	}

	while (1) {
		k_msleep(SERVO_UPDATE_MS);

		pulse += step;
		if (pulse > SERVO_MAX_NS || pulse < SERVO_MIN_NS) {
			/* reached an end stop: reverse direction */
			step = -step;
		}

		ret = servo_write(pulse);
		if (ret < 0) {
			printk("pwm_set_dt failed: %d\n", ret);
			return ret;
		}
	}

	return 0;
}
