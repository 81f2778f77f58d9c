#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/drivers/watchdog.h>
#include <zephyr/sys/printk.h>

#define WDT_WINDOW_MIN_MS 500U
#define WDT_WINDOW_MAX_MS 2000U
#define FEED_PERIOD_MS    1000
#define FEEDER_STACK_SIZE 1024
#define FEEDER_PRIORITY   5

static const struct device *const wdt = DEVICE_DT_GET(DT_ALIAS(watchdog0));
static int wdt_channel;

K_THREAD_STACK_DEFINE(feeder_stack, FEEDER_STACK_SIZE);
static struct k_thread feeder_thread;

static void feeder(void *p1, void *p2, void *p3)
{
	ARG_UNUSED(p1);
	ARG_UNUSED(p2);
	ARG_UNUSED(p3);

	while (true) {
		k_msleep(FEED_PERIOD_MS);

		int ret = wdt_feed(wdt, wdt_channel);

		if (ret < 0) {
			printk("watchdog feed failed: %d\n", ret);
			return;
		}
		printk("watchdog fed\n");
	}
}

int main(void)
{
	struct wdt_timeout_cfg cfg = {
		.window.min = WDT_WINDOW_MIN_MS,
		.window.max = WDT_WINDOW_MAX_MS,
		.callback = NULL,
		.flags = WDT_FLAG_RESET_SOC,
	};
	int ret;

	if (!device_is_ready(wdt)) {
		printk("watchdog %s not ready\n", wdt->name);
		return -ENODEV;
	}

	wdt_channel = wdt_install_timeout(wdt, &cfg);
	if (wdt_channel < 0) {
		printk("watchdog window rejected: %d\n", wdt_channel);
		return wdt_channel;
	}

	ret = wdt_setup(wdt, WDT_OPT_PAUSE_HALTED_BY_DBG);
	if (ret < 0) {
		printk("watchdog setup failed: %d\n", ret);
		return ret;
	}

	k_thread_create(&feeder_thread, feeder_stack, K_THREAD_STACK_SIZEOF(feeder_stack),
			feeder, NULL, NULL, NULL, FEEDER_PRIORITY, 0, K_NO_WAIT);
	k_thread_name_set(&feeder_thread, "wdt_feeder");
	return 0;
}
