/* defect: the work handler and the start-up read use gpio_pin_get_raw(), which ignores the devicetree GPIO_ACTIVE_LOW flag, so on the active-low sw0 button releases are counted as presses.
 * breaks: "A press is a change of the debounced state from released to pressed."
 * must_fail: level_sampled_in_work_handler
 */
/*
 * Debounced press counter for the sw0 button.
 *
 * Every edge (both directions) restarts a 20 ms delayable work item from the
 * GPIO callback. The work handler therefore only runs once the input has been
 * quiet for 20 ms; it samples the pin and counts released -> pressed changes.
 */
#include <errno.h>
#include <stdbool.h>

#include <zephyr/kernel.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/gpio.h>
#include <zephyr/sys/atomic.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>

#define SETTLE_TIME K_MSEC(20)

static const struct gpio_dt_spec button = GPIO_DT_SPEC_GET(DT_ALIAS(sw0), gpios);

static struct gpio_callback button_cb;
static atomic_t press_count = ATOMIC_INIT(0);

/* Debounced state; written by main before arming, then only by the work item. */
static bool debounced_pressed;

static void debounce_handler(struct k_work *work);
static K_WORK_DELAYABLE_DEFINE(debounce_work, debounce_handler);

static void debounce_handler(struct k_work *work)
{
	int val;

	ARG_UNUSED(work);

	val = gpio_pin_get_raw(button.port, button.pin);
	if (val < 0) {
		printk("button read failed: %d\n", val);
		return;
	}

	bool pressed = (val != 0);

	if (pressed == debounced_pressed) {
		/* bounce burst settled back to the old state */
		return;
	}

	debounced_pressed = pressed;
	if (pressed) {
		atomic_inc(&press_count);
	}
}

static void button_isr(const struct device *dev, struct gpio_callback *cb,
		       uint32_t pins)
{
	ARG_UNUSED(dev);
	ARG_UNUSED(cb);
	ARG_UNUSED(pins);

	/* restart the quiet-time window on every edge */
	(void)k_work_reschedule(&debounce_work, SETTLE_TIME);
}

int main(void)
{
	int ret;

	if (!gpio_is_ready_dt(&button)) {
		printk("error: button device %s not ready\n", button.port->name);
		return -ENODEV;
	}

	ret = gpio_pin_configure_dt(&button, GPIO_INPUT);
	if (ret < 0) {
		printk("error %d: failed to configure button pin\n", ret);
		return ret;
	}

	/* A button already held at start-up is the baseline, not a press. */
	ret = gpio_pin_get_raw(button.port, button.pin);
	if (ret < 0) {
		printk("error %d: failed to read button\n", ret);
		return ret;
	}
	debounced_pressed = (ret != 0);

	gpio_init_callback(&button_cb, button_isr, BIT(button.pin));
	ret = gpio_add_callback_dt(&button, &button_cb);
	if (ret < 0) {
		printk("error %d: failed to add button callback\n", ret);
		return ret;
	}

	ret = gpio_pin_interrupt_configure_dt(&button, GPIO_INT_EDGE_BOTH);
	if (ret < 0) {
		printk("error %d: failed to configure button interrupt\n", ret);
		(void)gpio_remove_callback_dt(&button, &button_cb);
		return ret;
	}

	printk("debounce ready\n");

	while (1) {
		k_sleep(K_SECONDS(1));
		printk("presses: %ld\n", (long)atomic_get(&press_count));
	}

	return 0;
}
