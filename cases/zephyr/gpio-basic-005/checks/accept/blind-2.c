/*
 * sw0 debounce: GPIO edge interrupt -> (re)start a 20 ms settle timer on the
 * system work queue -> sample the settled level and count presses.
 */
#include <errno.h>

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/drivers/gpio.h>
#include <zephyr/spinlock.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>

#define SW0_NODE        DT_ALIAS(sw0)
#define DEBOUNCE_MS     20

#if !DT_NODE_HAS_STATUS(SW0_NODE, okay)
#error "sw0 alias is not defined or not enabled"
#endif

struct debouncer {
	struct gpio_dt_spec pin;
	struct gpio_callback cb;
	struct k_work_delayable settle;
	int stable_level;           /* only touched by the work queue after arming */
	struct k_spinlock lock;     /* protects presses */
	unsigned int presses;
};

static struct debouncer btn = {
	.pin = GPIO_DT_SPEC_GET(SW0_NODE, gpios),
};

static void settle_work(struct k_work *work)
{
	struct k_work_delayable *dwork = k_work_delayable_from_work(work);
	struct debouncer *d = CONTAINER_OF(dwork, struct debouncer, settle);
	int level = gpio_pin_get_dt(&d->pin);

	if (level < 0) {
		return;
	}

	if (level != d->stable_level) {
		d->stable_level = level;

		if (level == 1) {
			k_spinlock_key_t key = k_spin_lock(&d->lock);

			d->presses++;
			k_spin_unlock(&d->lock, key);
		}
	}
}

static void edge_cb(const struct device *port, struct gpio_callback *cb,
		    uint32_t pins)
{
	struct debouncer *d = CONTAINER_OF(cb, struct debouncer, cb);

	ARG_UNUSED(port);

	if ((pins & BIT(d->pin.pin)) != 0U) {
		k_work_reschedule(&d->settle, K_MSEC(DEBOUNCE_MS));
	}
}

static unsigned int presses_so_far(struct debouncer *d)
{
	k_spinlock_key_t key = k_spin_lock(&d->lock);
	unsigned int n = d->presses;

	k_spin_unlock(&d->lock, key);
	return n;
}

static int arm_button(struct debouncer *d)
{
	int err;

	if (!gpio_is_ready_dt(&d->pin)) {
		return -ENODEV;
	}

	err = gpio_pin_configure_dt(&d->pin, GPIO_INPUT);
	if (err != 0) {
		return err;
	}

	err = gpio_pin_get_dt(&d->pin);
	if (err < 0) {
		return err;
	}
	d->stable_level = err;
	d->presses = 0U;

	k_work_init_delayable(&d->settle, settle_work);

	gpio_init_callback(&d->cb, edge_cb, BIT(d->pin.pin));
	err = gpio_add_callback(d->pin.port, &d->cb);
	if (err != 0) {
		return err;
	}

	err = gpio_pin_interrupt_configure_dt(&d->pin, GPIO_INT_EDGE_BOTH);
	if (err != 0) {
		(void)gpio_remove_callback(d->pin.port, &d->cb);
		return err;
	}

	return 0;
}

int main(void)
{
	int err = arm_button(&btn);

	if (err != 0) {
		printk("button setup failed: %d\n", err);
		return err;
	}

	printk("debounce ready\n");

	int64_t next = k_uptime_get();

	for (;;) {
		next += 1000;
		k_sleep(K_TIMEOUT_ABS_MS(next));
		printk("presses: %u\n", presses_so_far(&btn));
	}

	return 0;
}
