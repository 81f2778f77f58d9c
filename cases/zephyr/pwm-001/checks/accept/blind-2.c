#include <errno.h>
#include <stdio.h>
#include <zephyr/kernel.h>
#include <zephyr/drivers/pwm.h>

#define LED_NODE        DT_ALIAS(pwm_led0)
#define PERIOD_NS       PWM_MSEC(1)
#define FADE_STEPS      50
#define STEP_INTERVAL   K_MSEC(20)

static const struct pwm_dt_spec led = PWM_DT_SPEC_GET(LED_NODE);

/* Apply duty step n (0..FADE_STEPS) and wait one step interval. */
static int apply_step(int n)
{
	uint32_t pulse = (uint32_t)(((uint64_t)PERIOD_NS * (uint32_t)n) / FADE_STEPS);
	int err = pwm_set_dt(&led, PERIOD_NS, pulse);

	if (err) {
		printf("pwm_set_dt(step %d) failed: %d\n", n, err);
		return err;
	}

	k_sleep(STEP_INTERVAL);
	return 0;
}

int main(void)
{
	int err;

	if (!device_is_ready(led.dev)) {
		printf("PWM controller not ready\n");
		return -ENODEV;
	}

	printf("pwm fade ready\n");

	for (;;) {
		/* Up: off (0) -> fully on (FADE_STEPS) */
		for (int n = 0; n < FADE_STEPS; n++) {
			err = apply_step(n);
			if (err) {
				return err;
			}
		}
		/* Down: fully on (FADE_STEPS) -> just above off */
		for (int n = FADE_STEPS; n > 0; n--) {
			err = apply_step(n);
			if (err) {
				return err;
			}
		}
	}

	return 0;
}
