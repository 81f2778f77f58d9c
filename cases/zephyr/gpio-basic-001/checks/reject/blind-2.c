/* defect: the LED is toggled by the main thread at the once-a-second report (by press-count parity) instead of in the GPIO interrupt callback, so it changes up to a second late.
 * breaks: "Each press of the button (the moment it becomes active) must toggle the LED immediately, from the GPIO interrupt callback, and count the press."
 * must_fail: led_toggled_in_callback
 */
#include <errno.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/gpio.h>
#include <zephyr/spinlock.h>
#include <zephyr/sys/printk.h>

#define SW0_NODE  DT_ALIAS(sw0)
#define LED0_NODE DT_ALIAS(led0)

BUILD_ASSERT(DT_NODE_EXISTS(SW0_NODE), "sw0 alias missing from devicetree");
BUILD_ASSERT(DT_NODE_EXISTS(LED0_NODE), "led0 alias missing from devicetree");

static const struct gpio_dt_spec sw = GPIO_DT_SPEC_GET(SW0_NODE, gpios);
static const struct gpio_dt_spec led = GPIO_DT_SPEC_GET(LED0_NODE, gpios);

static struct gpio_callback sw_cb;

static struct k_spinlock count_lock;
static uint32_t presses;

static void on_button(const struct device *port, struct gpio_callback *cb,
		      gpio_port_pins_t pins)
{
	ARG_UNUSED(port);
	ARG_UNUSED(cb);
	ARG_UNUSED(pins);

	k_spinlock_key_t key = k_spin_lock(&count_lock);

	presses++;
	k_spin_unlock(&count_lock, key);
}

static uint32_t read_presses(void)
{
	k_spinlock_key_t key = k_spin_lock(&count_lock);
	uint32_t n = presses;

	k_spin_unlock(&count_lock, key);
	return n;
}

static int setup_gpio(void)
{
	int err;

	if (!device_is_ready(led.port)) {
		printk("LED port not ready\n");
		return -ENODEV;
	}
	if (!device_is_ready(sw.port)) {
		printk("button port not ready\n");
		return -ENODEV;
	}

	err = gpio_pin_configure_dt(&led, GPIO_OUTPUT_INACTIVE);
	if (err) {
		printk("LED configure failed: %d\n", err);
		return err;
	}

	err = gpio_pin_configure_dt(&sw, GPIO_INPUT);
	if (err) {
		printk("button configure failed: %d\n", err);
		return err;
	}

	err = gpio_pin_interrupt_configure_dt(&sw, GPIO_INT_EDGE_TO_ACTIVE);
	if (err) {
		printk("button interrupt configure failed: %d\n", err);
		return err;
	}

	gpio_init_callback(&sw_cb, on_button, BIT(sw.pin));
	err = gpio_add_callback(sw.port, &sw_cb);
	if (err) {
		printk("adding button callback failed: %d\n", err);
		return err;
	}

	return 0;
}

int main(void)
{
	int err = setup_gpio();

	if (err) {
		return err;
	}

	printk("button counter ready\n");

	uint32_t last = 0;
	int64_t next = k_uptime_get();

	for (;;) {
		next += MSEC_PER_SEC;
		int64_t remaining = next - k_uptime_get();

		if (remaining > 0) {
			k_msleep((int32_t)remaining);
		}

		uint32_t now = read_presses();

		if (now != last) {
			if ((now - last) & 1U) {
				gpio_pin_toggle_dt(&led);
			}
			printk("presses: %u\n", now);
			last = now;
		}
	}

	return 0;
}
