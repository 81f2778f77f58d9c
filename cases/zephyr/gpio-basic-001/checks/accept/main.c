#include <stdbool.h>
#include <zephyr/kernel.h>
#include <zephyr/drivers/gpio.h>

#define SW_NODE  DT_ALIAS(sw0)
#define LED_NODE DT_ALIAS(led0)

static const struct gpio_dt_spec sw = GPIO_DT_SPEC_GET(SW_NODE, gpios);
static const struct gpio_dt_spec indicator = GPIO_DT_SPEC_GET(LED_NODE, gpios);

static volatile uint32_t presses;
static struct gpio_callback sw_callback;

static void on_press(const struct device *dev, struct gpio_callback *cb, uint32_t pins)
{
	presses++;
	(void)gpio_pin_toggle_dt(&indicator);
}

static int arm_button(void)
{
	int err = gpio_pin_configure_dt(&sw, GPIO_INPUT);

	if (err) {
		return err;
	}
	err = gpio_pin_interrupt_configure_dt(&sw, GPIO_INT_EDGE_TO_ACTIVE);
	if (err) {
		return err;
	}
	gpio_init_callback(&sw_callback, on_press, BIT(sw.pin));
	return gpio_add_callback_dt(&sw, &sw_callback);
}

int main(void)
{
	uint32_t last = 0;
	int err;

	if (!device_is_ready(sw.port) || !device_is_ready(indicator.port)) {
		return -ENODEV;
	}
	err = gpio_pin_configure_dt(&indicator, GPIO_OUTPUT_INACTIVE);
	if (err) {
		return err;
	}
	err = arm_button();
	if (err) {
		printk("arming the button failed: %d\n", err);
		return err;
	}
	printk("button counter ready\n");

	while (true) {
		uint32_t seen = presses;

		if (seen != last) {
			printk("presses: %u\n", seen);
			last = seen;
		}
		k_msleep(1000);
	}
}
