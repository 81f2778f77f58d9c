#include <zephyr/kernel.h>
#include <zephyr/drivers/gpio.h>
#include <zephyr/sys/atomic.h>
#include <zephyr/sys/printk.h>

#define DEBOUNCE_MS 20

static const struct gpio_dt_spec button = GPIO_DT_SPEC_GET(DT_ALIAS(sw0), gpios);

static struct gpio_callback button_cb;
static struct k_work_delayable debounce_work;

/* Debounced logical level (1 = pressed). Seeded by main before the
 * interrupt is enabled, afterwards written only by the work handler.
 */
static int stable_level;
static atomic_t press_count = ATOMIC_INIT(0);

static void debounce_settled(struct k_work *work)
{
	int level = gpio_pin_get_dt(&button);

	ARG_UNUSED(work);

	if (level < 0) {
		return;
	}
	if (level == stable_level) {
		return;
	}

	stable_level = level;
	if (level == 1) {
		atomic_inc(&press_count);
	}
}

static void button_edge(const struct device *port, struct gpio_callback *cb, uint32_t pins)
{
	ARG_UNUSED(port);
	ARG_UNUSED(cb);
	ARG_UNUSED(pins);

	/* Each edge of a bounce burst moves the sampling deadline out again. */
	(void)k_work_reschedule(&debounce_work, K_MSEC(DEBOUNCE_MS));
}

int main(void)
{
	int ret;

	if (!gpio_is_ready_dt(&button)) {
		printk("button port %s not ready\n", button.port->name);
		return -ENODEV;
	}

	ret = gpio_pin_configure_dt(&button, GPIO_INPUT);
	if (ret < 0) {
		printk("button configure failed: %d\n", ret);
		return ret;
	}

	ret = gpio_pin_get_dt(&button);
	if (ret < 0) {
		printk("button read failed: %d\n", ret);
		return ret;
	}
	stable_level = ret;

	k_work_init_delayable(&debounce_work, debounce_settled);

	gpio_init_callback(&button_cb, button_edge, BIT(button.pin));
	ret = gpio_add_callback_dt(&button, &button_cb);
	if (ret < 0) {
		printk("button callback failed: %d\n", ret);
		return ret;
	}

	ret = gpio_pin_interrupt_configure_dt(&button, GPIO_INT_EDGE_BOTH);
	if (ret < 0) {
		printk("button interrupt failed: %d\n", ret);
		return ret;
	}

	printk("debounce ready\n");

	while (1) {
		k_sleep(K_SECONDS(1));
		printk("presses: %ld\n", (long)atomic_get(&press_count));
	}
	return 0;
}
