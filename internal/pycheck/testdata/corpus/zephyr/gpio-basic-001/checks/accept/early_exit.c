#include <zephyr/kernel.h>
#include <zephyr/drivers/gpio.h>
#include <zephyr/sys/printk.h>

#define LED_NODE DT_ALIAS(led0)
#define BTN_NODE DT_ALIAS(sw0)

static const struct gpio_dt_spec out = GPIO_DT_SPEC_GET(LED_NODE, gpios);
static const struct gpio_dt_spec in = GPIO_DT_SPEC_GET(BTN_NODE, gpios);

static int setup(void)
{
	int err;

	if (!gpio_is_ready_dt(&in)) {
		return -ENODEV;
	}
	if (!gpio_is_ready_dt(&out)) {
		return -ENODEV;
	}
	err = gpio_pin_configure_dt(&in, GPIO_INPUT);
	if (err) {
		return err;
	}
	return gpio_pin_configure_dt(&out, GPIO_OUTPUT_INACTIVE);
}

int main(void)
{
	if (setup() != 0) {
		return 0;
	}
	printk("led follower ready\n");
	for (;;) {
		int v = gpio_pin_get_dt(&in);

		if (v < 0) {
			continue;
		}
		(void)gpio_pin_set_dt(&out, v);
		k_sleep(K_MSEC(10));
	}
}
