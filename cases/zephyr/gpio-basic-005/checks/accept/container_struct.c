#include <zephyr/kernel.h>
#include <zephyr/drivers/gpio.h>
#include <zephyr/sys/atomic.h>

struct debounced_button {
	struct gpio_dt_spec spec;
	struct gpio_callback cb;
	struct k_work_delayable settle;
	int pressed;
	atomic_t presses;
};

static struct debounced_button btn = {
	.spec = GPIO_DT_SPEC_GET(DT_ALIAS(sw0), gpios),
};

static void settle_handler(struct k_work *work)
{
	struct k_work_delayable *dwork = k_work_delayable_from_work(work);
	struct debounced_button *b = CONTAINER_OF(dwork, struct debounced_button, settle);
	int level = gpio_pin_get_dt(&b->spec);

	if (level < 0 || level == b->pressed) {
		return;
	}
	b->pressed = level;
	if (level) {
		atomic_inc(&b->presses);
	}
}

static void edge_cb(const struct device *port, struct gpio_callback *cb, uint32_t pins)
{
	struct debounced_button *b = CONTAINER_OF(cb, struct debounced_button, cb);

	k_work_reschedule(&b->settle, K_MSEC(20));
}

int main(void)
{
	int err;

	if (!gpio_is_ready_dt(&btn.spec)) {
		printk("not ready\n");
		return -ENODEV;
	}
	err = gpio_pin_configure_dt(&btn.spec, GPIO_INPUT);
	if (err < 0) {
		printk("cfg %d\n", err);
		return err;
	}
	int level = gpio_pin_get_dt(&btn.spec);

	if (level < 0) {
		printk("get %d\n", level);
		return level;
	}
	btn.pressed = level;
	k_work_init_delayable(&btn.settle, settle_handler);
	gpio_init_callback(&btn.cb, edge_cb, BIT(btn.spec.pin));
	err = gpio_add_callback_dt(&btn.spec, &btn.cb);
	if (err < 0) {
		printk("cb %d\n", err);
		return err;
	}
	err = gpio_pin_interrupt_configure_dt(&btn.spec, GPIO_INT_EDGE_BOTH);
	if (err < 0) {
		printk("irq %d\n", err);
		return err;
	}
	printk("debounce ready\n");
	while (1) {
		k_sleep(K_SECONDS(1));
		printk("presses: %ld\n", (long)atomic_get(&btn.presses));
	}
	return 0;
}
