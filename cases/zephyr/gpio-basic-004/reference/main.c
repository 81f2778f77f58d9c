#include <stdbool.h>
#include <zephyr/kernel.h>
#include <zephyr/drivers/gpio.h>
#include <zephyr/sys/printk.h>

#define BLINK_TOGGLES   6
#define BLINK_PERIOD_MS 500

static const struct gpio_dt_spec led = GPIO_DT_SPEC_GET(DT_ALIAS(led0), gpios);

int main(void)
{
	bool led_on = false;
	int ret;

	if (!gpio_is_ready_dt(&led)) {
		printk("LED controller %s not ready\n", led.port->name);
		return -ENODEV;
	}

	ret = gpio_pin_configure_dt(&led, GPIO_OUTPUT_INACTIVE);
	if (ret < 0) {
		printk("LED configuration failed: %d\n", ret);
		return ret;
	}

	for (int i = 1; i <= BLINK_TOGGLES; i++) {
		ret = gpio_pin_toggle_dt(&led);
		if (ret < 0) {
			printk("LED toggle failed: %d\n", ret);
			return ret;
		}
		led_on = !led_on;
		printk("toggle %d: LED %s\n", i, led_on ? "on" : "off");
		k_msleep(BLINK_PERIOD_MS);
	}

	printk("blink done\n");
	return 0;
}
