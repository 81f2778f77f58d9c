/* defect: the LED is configured as a plain GPIO_OUTPUT with no initial level and only driven off afterwards, so its level is undefined from configuration until the following set call.
 * breaks: "Configure the LED as an output that is off from the moment it is configured."
 * must_fail: output_starts_inactive
 */
#include <errno.h>
#include <stdbool.h>

#include <zephyr/kernel.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/gpio.h>
#include <zephyr/sys/printk.h>

#define LED0_NODE       DT_ALIAS(led0)
#define TOGGLE_COUNT    6
#define TOGGLE_DELAY_MS 500

static const struct gpio_dt_spec led = GPIO_DT_SPEC_GET(LED0_NODE, gpios);

int main(void)
{
	bool led_on = false;
	int ret;

	if (!gpio_is_ready_dt(&led)) {
		printk("LED device %s not ready\n", led.port->name);
		return -ENODEV;
	}

	ret = gpio_pin_configure_dt(&led, GPIO_OUTPUT);
	if (ret < 0) {
		printk("failed to configure LED: %d\n", ret);
		return ret;
	}

	ret = gpio_pin_set_dt(&led, 0);
	if (ret < 0) {
		printk("failed to switch LED off: %d\n", ret);
		return ret;
	}

	for (int i = 1; i <= TOGGLE_COUNT; i++) {
		k_msleep(TOGGLE_DELAY_MS);

		ret = gpio_pin_toggle_dt(&led);
		if (ret < 0) {
			printk("failed to toggle LED: %d\n", ret);
			return ret;
		}
		led_on = !led_on;

		printk("toggle %d: LED %s\n", i, led_on ? "on" : "off");
	}

	printk("blink done\n");
	return 0;
}
