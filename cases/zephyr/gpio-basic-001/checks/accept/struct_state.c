#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/drivers/gpio.h>
#include <zephyr/sys/atomic.h>
#include <zephyr/sys/printk.h>

/* Everything the interrupt path touches lives in one object. */
struct press_tracker {
	const struct gpio_dt_spec key;
	const struct gpio_dt_spec lamp;
	struct gpio_callback isr_hook;
	atomic_t hits;
};

static struct press_tracker tracker = {
	.key = GPIO_DT_SPEC_GET(DT_ALIAS(sw0), gpios),
	.lamp = GPIO_DT_SPEC_GET(DT_ALIAS(led0), gpios),
	.hits = ATOMIC_INIT(0),
};

static void key_edge(const struct device *port, struct gpio_callback *hook, gpio_port_pins_t fired)
{
	if ((fired & BIT(tracker.key.pin)) == 0U) {
		return;
	}
	(void)gpio_pin_toggle_dt(&tracker.lamp);
	atomic_inc(&tracker.hits);
}

static int setup_pins(struct press_tracker *t)
{
	int rc;

	if (!gpio_is_ready_dt(&t->lamp)) {
		printk("LED port not ready\n");
		return -ENODEV;
	}
	if (!gpio_is_ready_dt(&t->key)) {
		printk("button port not ready\n");
		return -ENODEV;
	}

	rc = gpio_pin_configure_dt(&t->lamp, GPIO_OUTPUT_INACTIVE);
	if (rc != 0) {
		return rc;
	}
	rc = gpio_pin_configure_dt(&t->key, GPIO_INPUT);
	if (rc != 0) {
		return rc;
	}

	/* Hook the handler first, then enable the interrupt. */
	gpio_init_callback(&t->isr_hook, key_edge, BIT(t->key.pin));
	rc = gpio_add_callback_dt(&t->key, &t->isr_hook);
	if (rc != 0) {
		return rc;
	}
	rc = gpio_pin_interrupt_configure_dt(&t->key, GPIO_INT_EDGE_TO_ACTIVE);
	if (rc != 0) {
		(void)gpio_remove_callback_dt(&t->key, &t->isr_hook);
		return rc;
	}
	return 0;
}

int main(void)
{
	atomic_val_t shown = 0;
	int rc = setup_pins(&tracker);

	if (rc != 0) {
		printk("button setup failed (%d)\n", rc);
		return rc;
	}
	printk("button counter ready\n");

	for (;;) {
		k_sleep(K_MSEC(1000));

		atomic_val_t current = atomic_get(&tracker.hits);

		if (current == shown) {
			continue;
		}
		shown = current;
		printk("presses: %ld\n", (long)current);
	}
	return 0;
}
