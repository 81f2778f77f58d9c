#include <zephyr/kernel.h>
#include <zephyr/drivers/gpio.h>
#include <zephyr/sys/printk.h>

static const struct gpio_dt_spec led = GPIO_DT_SPEC_GET(DT_ALIAS(led0), gpios);
static const struct gpio_dt_spec button = GPIO_DT_SPEC_GET(DT_ALIAS(sw0), gpios);

int main(void)
{
	if (!gpio_is_ready_dt(&led) || !gpio_is_ready_dt(&button)) {
		return -ENODEV;
	}
	if (gpio_pin_configure_dt(&led, GPIO_OUTPUT_INACTIVE) < 0) {
		return -EIO;
	}
	if (gpio_pin_configure_dt(&button, GPIO_INPUT) < 0) {
		return -EIO;
	}
	printk("led follower ready\n");
	while (1) {
		int pressed = gpio_pin_get_dt(&button);

		if (pressed >= 0) {
			gpio_pin_set_dt(&led, pressed);
		}
		k_msleep(10);
	}
	return 0;
}
