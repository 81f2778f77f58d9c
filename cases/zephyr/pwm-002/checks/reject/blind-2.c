/* defect: pulse widths are kept in microseconds but passed straight to pwm_set_dt, which expects nanoseconds, so the servo gets 1-2 us pulses instead of 1-2 ms.
 * breaks: "A 1 ms pulse is one end stop, 2 ms the other, 1.5 ms the centre."
 * must_fail: servo_end_stops_1_and_2_ms
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
#define SERVO_MIN_US     1000
#define SERVO_MAX_US     2000
#define SERVO_CENTER_US  1500
#define SERVO_STEP_US    10
#define SERVO_UPDATE_MS  20

static uint32_t clamp_pulse(int32_t pulse_us)
{
	if (pulse_us < SERVO_MIN_US) {
		return (uint32_t)SERVO_MIN_US;
	}
	if (pulse_us > SERVO_MAX_US) {
		return (uint32_t)SERVO_MAX_US;
	}
	return (uint32_t)pulse_us;
}

static int servo_write(int32_t pulse_us)
{
	/* Never let a computed value reach the hardware unclamped */
	return pwm_set_dt(&servo, SERVO_PERIOD_NS, clamp_pulse(pulse_us));
}

int main(void)
{
	int32_t pulse = SERVO_CENTER_US;
	int32_t step = SERVO_STEP_US;
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
		if (pulse >= SERVO_MAX_US) {
			pulse = SERVO_MAX_US;
			step = -SERVO_STEP_US;
		} else if (pulse <= SERVO_MIN_US) {
			pulse = SERVO_MIN_US;
			step = SERVO_STEP_US;
		}

		ret = servo_write(pulse);
		if (ret < 0) {
			printk("pwm_set_dt failed: %d\n", ret);
			return ret;
		}
	}

	return 0;
}
