/* defect: the interrupt is configured on the raw physical rising edge (GPIO_INT_EDGE_RISING) instead of the logical edge to active, so on an active-low button the LED toggles and the count increments on release, not press.
 * breaks: "Each press of the button (the moment it becomes active) must toggle the LED immediately, from the GPIO interrupt callback, and count the press."
 * must_fail: edge_triggered_interrupt
 */
#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/drivers/gpio.h>
#include <zephyr/sys/atomic.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>

#if !DT_NODE_HAS_STATUS_OKAY(DT_ALIAS(sw0))
#error "Unsupported board: sw0 devicetree alias is not defined"
#endif

#if !DT_NODE_HAS_STATUS_OKAY(DT_ALIAS(led0))
#error "Unsupported board: led0 devicetree alias is not defined"
#endif

static const struct gpio_dt_spec button = GPIO_DT_SPEC_GET(DT_ALIAS(sw0), gpios);
static const struct gpio_dt_spec led = GPIO_DT_SPEC_GET(DT_ALIAS(led0), gpios);

static struct gpio_callback button_cb_data;
static atomic_t press_count = ATOMIC_INIT(0);

static void button_pressed(const struct device *dev, struct gpio_callback *cb,
			   uint32_t pins)
{
	ARG_UNUSED(dev);
	ARG_UNUSED(cb);

	if ((pins & BIT(button.pin)) == 0U) {
		return;
	}

	(void)gpio_pin_toggle_dt(&led);
	atomic_inc(&press_count);
}

int main(void)
{
	int ret;

	if (!gpio_is_ready_dt(&button)) {
		printk("Error: button device %s is not ready\n", button.port->name);
		return -ENODEV;
	}

	if (!gpio_is_ready_dt(&led)) {
		printk("Error: LED device %s is not ready\n", led.port->name);
		return -ENODEV;
	}

	ret = gpio_pin_configure_dt(&led, GPIO_OUTPUT_INACTIVE);
	if (ret < 0) {
		printk("Error %d: failed to configure LED pin\n", ret);
		return ret;
	}

	ret = gpio_pin_configure_dt(&button, GPIO_INPUT);
	if (ret < 0) {
		printk("Error %d: failed to configure button pin\n", ret);
		return ret;
	}

	gpio_init_callback(&button_cb_data, button_pressed, BIT(button.pin));
	ret = gpio_add_callback_dt(&button, &button_cb_data);
	if (ret < 0) {
		printk("Error %d: failed to add button callback\n", ret);
		return ret;
	}

	ret = gpio_pin_interrupt_configure_dt(&button, GPIO_INT_EDGE_RISING);
	if (ret < 0) {
		printk("Error %d: failed to configure button interrupt\n", ret);
		return ret;
	}

	printk("button counter ready\n");

	atomic_val_t reported = 0;

	while (1) {
		k_sleep(K_SECONDS(1));

		atomic_val_t now = atomic_get(&press_count);

		if (now != reported) {
			printk("presses: %ld\n", (long)now);
			reported = now;
		}
	}

	return 0;
}
