/*
 * Hobby servo sweep driven by a periodic kernel timer. The PWM controller,
 * channel and polarity are taken from the pwm-servo0 devicetree alias.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/drivers/pwm.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>

/* All pulse arithmetic is done in microseconds, converted at the driver call */
#define FRAME_US       20000U
#define PULSE_MIN_US   1000
#define PULSE_MAX_US   2000
#define PULSE_MID_US   1500
#define PULSE_STEP_US  10

static const struct pwm_dt_spec servo = PWM_DT_SPEC_GET(DT_ALIAS(pwm_servo0));

K_TIMER_DEFINE(frame_timer, NULL, NULL);

static int servo_set_us(int pulse_us)
{
	uint32_t safe_us = (uint32_t)CLAMP(pulse_us, PULSE_MIN_US, PULSE_MAX_US);

	return pwm_set(servo.dev, servo.channel, PWM_USEC(FRAME_US),
		       PWM_USEC(safe_us), servo.flags);
}

int main(void)
{
	int pulse_us = PULSE_MID_US;
	bool rising = true;
	int err;

	if (!device_is_ready(servo.dev)) {
		printk("error: PWM controller not ready\n");
		return -ENODEV;
	}

	printk("servo ready\n");

	err = servo_set_us(pulse_us);
	if (err != 0) {
		printk("error %d: cannot set servo pulse\n", err);
		return err;
	}

	k_timer_start(&frame_timer, K_USEC(FRAME_US), K_USEC(FRAME_US));

	for (;;) {
		/* Wait for the next 20 ms tick; the timer does not drift */
		k_timer_status_sync(&frame_timer);

		if (rising) {
			pulse_us += PULSE_STEP_US;
			if (pulse_us >= PULSE_MAX_US) {
				rising = false;
			}
		} else {
			pulse_us -= PULSE_STEP_US;
			if (pulse_us <= PULSE_MIN_US) {
				rising = true;
			}
		}

		err = servo_set_us(pulse_us);
		if (err != 0) {
			k_timer_stop(&frame_timer);
			printk("error %d: cannot set servo pulse\n", err);
			return err;
		}
	}

	return 0;
}
