/*
 * Blink an LED from a thread and count button presses in an ISR.
 */
#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/drivers/gpio.h>
#include <zephyr/logging/log.h>
#include "app_config.h"

LOG_MODULE_REGISTER(app, LOG_LEVEL_INF);

#define STACK_SIZE 1024
#define PRIORITY   5
#define SLEEP_MS(ms) K_MSEC(ms)

static const struct gpio_dt_spec led = GPIO_DT_SPEC_GET(DT_ALIAS(led0), gpios);
static const struct device *const uart = DEVICE_DT_GET(DT_CHOSEN(zephyr_console));
static struct gpio_callback button_cb;
static volatile uint32_t presses;
static atomic_t flags;
K_SEM_DEFINE(blink_sem, 0, 1);

static void __isr button_pressed(const struct device *dev, struct gpio_callback *cb,
				 uint32_t pins)
{
	ARG_UNUSED(dev);
	presses++;
	atomic_set_bit(&flags, 0);
	k_sem_give(&blink_sem);
}

static inline bool led_ready(void)
{
	return gpio_is_ready_dt(&led) && device_is_ready(uart);
}

void blink_thread(void *p1, void *p2, void *p3)
{
	int ret;
	uint8_t buf[16];

	while (1) {
		if (k_sem_take(&blink_sem, K_FOREVER) != 0) {
			continue;
		}
		ret = gpio_pin_toggle_dt(&led);
		if (ret < 0) {
			LOG_ERR("toggle failed: %d", ret);
			return;
		}
		snprintk(buf, sizeof(buf), "%u", presses);
		k_sleep(SLEEP_MS(100));
	}
}

K_THREAD_DEFINE(blink_tid, STACK_SIZE, blink_thread, NULL, NULL, NULL, PRIORITY, 0, 0);

int main(void)
{
	if (!led_ready()) {
		LOG_ERR("LED not ready");
		return -ENODEV;
	}
	gpio_pin_configure_dt(&led, GPIO_OUTPUT_ACTIVE);
	gpio_init_callback(&button_cb, button_pressed, BIT(11));
	LOG_INF("started");
	return 0;
}
