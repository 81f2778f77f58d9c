#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/drivers/gpio.h>

#define STATUS_LED_NODE DT_ALIAS(led0)
#define HALF_PERIOD     K_MSEC(500)

static const struct gpio_dt_spec status_led = GPIO_DT_SPEC_GET(STATUS_LED_NODE, gpios);

static int show_state(int step, int level)
{
	int err = gpio_pin_set_dt(&status_led, level);

	if (err) {
		return err;
	}
	printk("toggle %d: LED %s\n", step, level ? "on" : "off");
	return 0;
}

int main(void)
{
	int remaining = 6;
	int step = 0;
	int level = 0;
	int err;

	if (!device_is_ready(status_led.port)) {
		printk("status LED controller missing\n");
		return -ENODEV;
	}
	err = gpio_pin_configure_dt(&status_led, GPIO_OUTPUT_INACTIVE);
	if (err) {
		return err;
	}

	while (remaining-- > 0) {
		level = !level;
		err = show_state(++step, level);
		if (err) {
			printk("LED write failed (%d)\n", err);
			return err;
		}
		k_sleep(HALF_PERIOD);
	}

	printk("blink done\n");
	return 0;
}
