#include <stdbool.h>
#include <zephyr/kernel.h>
#include <zephyr/drivers/gpio.h>
#include <zephyr/logging/log.h>

LOG_MODULE_REGISTER(debounce, LOG_LEVEL_INF);

#define DEBOUNCE_TIME K_MSEC(20)

static const struct gpio_dt_spec sw0 = GPIO_DT_SPEC_GET(DT_ALIAS(sw0), gpios);
static struct gpio_callback sw0_cb;
static struct k_work_delayable sw0_work;
static atomic_t n_presses;
static bool last_pressed;

static void count_press(void)
{
	atomic_inc(&n_presses);
}

static void sw0_settled(struct k_work *work)
{
	int v = gpio_pin_get_dt(&sw0);

	if (v < 0) {
		LOG_ERR("read failed: %d", v);
		return;
	}
	if ((v == 1) == last_pressed) {
		return;
	}
	last_pressed = (v == 1);
	if (!last_pressed) {
		return;
	}
	count_press();
}

static void sw0_edge(const struct device *dev, struct gpio_callback *cb, uint32_t pins)
{
	if (pins & BIT(sw0.pin)) {
		k_work_reschedule(&sw0_work, DEBOUNCE_TIME);
	}
}

static void init_work(void)
{
	k_work_init_delayable(&sw0_work, sw0_settled);
}

static int setup_button(void)
{
	int rc;

	if (!gpio_is_ready_dt(&sw0)) {
		return -ENODEV;
	}
	rc = gpio_pin_configure_dt(&sw0, GPIO_INPUT);
	if (rc < 0) {
		return rc;
	}
	rc = gpio_pin_get_dt(&sw0);
	if (rc < 0) {
		return rc;
	}
	last_pressed = rc == 1;
	rc = gpio_pin_interrupt_configure_dt(&sw0, GPIO_INT_EDGE_BOTH);
	if (rc < 0) {
		return rc;
	}
	gpio_init_callback(&sw0_cb, sw0_edge, BIT(sw0.pin));
	rc = gpio_add_callback_dt(&sw0, &sw0_cb);
	if (rc < 0) {
		return rc;
	}
	return 0;
}

int main(void)
{
	init_work();
	int rc = setup_button();

	if (rc < 0) {
		LOG_ERR("button setup failed: %d", rc);
		return rc;
	}
	printk("debounce ready\n");
	while (true) {
		k_sleep(K_MSEC(1000));
		printk("presses: %d\n", (int)atomic_get(&n_presses));
	}
	return 0;
}
