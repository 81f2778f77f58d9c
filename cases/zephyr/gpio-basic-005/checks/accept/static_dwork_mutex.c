#include <stdbool.h>
#include <zephyr/kernel.h>
#include <zephyr/drivers/gpio.h>

#define SW_NODE       DT_ALIAS(sw0)
#define QUIET_MS      20
#define REPORT_MS     1000

static const struct gpio_dt_spec sw = GPIO_DT_SPEC_GET(SW_NODE, gpios);

static K_MUTEX_DEFINE(count_lock);
static unsigned int presses;
static bool is_down;

static void sample_button(struct k_work *work)
{
	int val = gpio_pin_get_dt(&sw);
	bool pressed;

	ARG_UNUSED(work);
	if (val < 0) {
		return;
	}
	pressed = (val != 0);
	if (pressed && !is_down) {
		k_mutex_lock(&count_lock, K_FOREVER);
		presses++;
		k_mutex_unlock(&count_lock);
	}
	is_down = pressed;
}

static K_WORK_DELAYABLE_DEFINE(quiet_work, sample_button);
static struct gpio_callback sw_cb;

static void sw_isr(const struct device *dev, struct gpio_callback *cb, uint32_t pins)
{
	k_work_reschedule_for_queue(&k_sys_work_q, &quiet_work, K_MSEC(QUIET_MS));
}

int main(void)
{
	int err;
	int val;

	if (!device_is_ready(sw.port)) {
		printk("sw0 not ready\n");
		return -ENODEV;
	}
	err = gpio_pin_configure_dt(&sw, GPIO_INPUT);
	if (err != 0) {
		printk("configure: %d\n", err);
		return err;
	}
	gpio_init_callback(&sw_cb, sw_isr, BIT(sw.pin));
	err = gpio_add_callback_dt(&sw, &sw_cb);
	if (err != 0) {
		printk("add callback: %d\n", err);
		return err;
	}
	val = gpio_pin_get_dt(&sw);
	if (val < 0) {
		printk("read: %d\n", val);
		return val;
	}
	is_down = val > 0;
	err = gpio_pin_interrupt_configure_dt(&sw, GPIO_INT_EDGE_BOTH);
	if (err != 0) {
		printk("interrupt: %d\n", err);
		return err;
	}
	printk("debounce ready\n");

	while (true) {
		unsigned int snapshot;

		k_msleep(REPORT_MS);
		k_mutex_lock(&count_lock, K_FOREVER);
		snapshot = presses;
		k_mutex_unlock(&count_lock);
		printk("presses: %u\n", snapshot);
	}
	return 0;
}
