#include <stdbool.h>
#include <zephyr/kernel.h>
#include <zephyr/drivers/gpio.h>
#include <zephyr/spinlock.h>

#define SETTLE_TIME K_MSEC(20)

static const struct gpio_dt_spec btn = GPIO_DT_SPEC_GET(DT_ALIAS(sw0), gpios);
static struct gpio_callback btn_cb;

static struct k_spinlock count_lock;
static uint32_t press_total;
static bool btn_down;

static void sample_fn(struct k_work *work);
static K_WORK_DEFINE(sample_work, sample_fn);

static void settle_expired(struct k_timer *timer)
{
	ARG_UNUSED(timer);
	k_work_submit(&sample_work);
}

K_TIMER_DEFINE(settle_timer, settle_expired, NULL);

static void sample_fn(struct k_work *work)
{
	ARG_UNUSED(work);
	int now = gpio_pin_get_dt(&btn);

	if (now < 0) {
		return;
	}
	if (now == 1 && !btn_down) {
		k_spinlock_key_t key = k_spin_lock(&count_lock);

		press_total++;
		k_spin_unlock(&count_lock, key);
	}
	btn_down = (now == 1);
}

static void on_btn_edge(const struct device *dev, struct gpio_callback *cb, gpio_port_pins_t pins)
{
	ARG_UNUSED(dev);
	ARG_UNUSED(cb);
	ARG_UNUSED(pins);
	k_timer_start(&settle_timer, SETTLE_TIME, K_NO_WAIT);
}

static int arm_button(void)
{
	int err;
	int lvl;

	if (!gpio_is_ready_dt(&btn)) {
		return -ENODEV;
	}
	err = gpio_pin_configure_dt(&btn, GPIO_INPUT);
	if (err) {
		return err;
	}
	lvl = gpio_pin_get_dt(&btn);
	if (lvl < 0) {
		return lvl;
	}
	btn_down = (lvl == 1);

	err = gpio_pin_interrupt_configure_dt(&btn, GPIO_INT_EDGE_BOTH);
	if (err) {
		return err;
	}
	gpio_init_callback(&btn_cb, on_btn_edge, BIT(btn.pin));
	return gpio_add_callback(btn.port, &btn_cb);
}

int main(void)
{
	int err = arm_button();

	if (err < 0) {
		printk("button setup error %d\n", err);
		return err;
	}
	printk("debounce ready\n");

	for (;;) {
		k_msleep(1000);

		k_spinlock_key_t key = k_spin_lock(&count_lock);
		uint32_t n = press_total;

		k_spin_unlock(&count_lock, key);
		printk("presses: %u\n", n);
	}
}
