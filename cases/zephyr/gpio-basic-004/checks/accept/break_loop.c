#include <stdbool.h>
#include <zephyr/kernel.h>
#include <zephyr/drivers/gpio.h>

static const struct gpio_dt_spec heartbeat =
	GPIO_DT_SPEC_GET_OR(DT_ALIAS(led0), gpios, {0});

static const int32_t toggle_gap_ms = 500;

static void pause_between_toggles(void)
{
	k_msleep(toggle_gap_ms);
}

int main(void)
{
	unsigned int n = 0;

	if (!gpio_is_ready_dt(&heartbeat)) {
		return -ENODEV;
	}
	if (gpio_pin_configure_dt(&heartbeat, GPIO_OUTPUT_INACTIVE) != 0) {
		printk("cannot drive the heartbeat LED\n");
		return -EIO;
	}

	while (true) {
		int rc = gpio_pin_toggle_dt(&heartbeat);

		if (rc < 0) {
			return rc;
		}
		n++;
		printk("toggle %u: LED %s\n", n, (n % 2U) ? "on" : "off");
		pause_between_toggles();
		if (n == 6U) {
			break;
		}
	}
	printk("blink done\n");
	return 0;
}
