/*
 * Blink led0 six times (three on/off cycles), 500 ms between toggles,
 * driving the logical level explicitly, then stop with the LED off.
 */
#include <errno.h>

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/drivers/gpio.h>
#include <zephyr/sys/printk.h>

#if !DT_NODE_HAS_STATUS(DT_ALIAS(led0), okay)
#error "board has no led0 alias"
#endif

static const struct gpio_dt_spec status_led =
	GPIO_DT_SPEC_GET(DT_ALIAS(led0), gpios);

static int led_write(int toggle_no, int level)
{
	int err = gpio_pin_set_dt(&status_led, level);

	if (err != 0) {
		printk("gpio_pin_set_dt failed (%d)\n", err);
		return err;
	}

	printk("toggle %d: LED %s\n", toggle_no, level ? "on" : "off");
	return 0;
}

int main(void)
{
	int level = 0;
	int err;

	if (!device_is_ready(status_led.port)) {
		printk("led0 GPIO controller not ready\n");
		return -ENODEV;
	}

	/* Output, driven to the inactive (off) level as part of configuration. */
	err = gpio_pin_configure_dt(&status_led, GPIO_OUTPUT | GPIO_OUTPUT_INIT_LOW |
					    GPIO_OUTPUT_INIT_LOGICAL);
	if (err != 0) {
		printk("gpio_pin_configure_dt failed (%d)\n", err);
		return err;
	}

	for (int n = 1; n <= 6; n++) {
		if (n > 1) {
			k_sleep(K_MSEC(500));
		}

		level = !level;
		err = led_write(n, level);
		if (err != 0) {
			return err;
		}
	}

	printk("blink done\n");
	return 0;
}
