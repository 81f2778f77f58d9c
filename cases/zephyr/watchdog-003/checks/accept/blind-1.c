/*
 * Windowed hardware watchdog (alias watchdog0): a feed earlier than 500 ms
 * or later than 2000 ms after the previous one resets the SoC.
 */
#include <errno.h>

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/watchdog.h>
#include <zephyr/sys/printk.h>

#define WDT_WINDOW_MIN_MS 500U
#define WDT_WINDOW_MAX_MS 2000U
/* Middle of the open window: far from both the early and the late limit. */
#define FEED_PERIOD_MS    1250U

#define FEEDER_STACK_SIZE 1024
#define FEEDER_PRIORITY   5

static const struct device *const wdt_dev = DEVICE_DT_GET(DT_ALIAS(watchdog0));
static int wdt_channel;

K_THREAD_STACK_DEFINE(feeder_stack, FEEDER_STACK_SIZE);
static struct k_thread feeder_thread;

static void feeder_entry(void *p1, void *p2, void *p3)
{
	ARG_UNUSED(p1);
	ARG_UNUSED(p2);
	ARG_UNUSED(p3);

	while (1) {
		int rc;

		/* Sleep first: the window opens WDT_WINDOW_MIN_MS after start. */
		k_msleep(FEED_PERIOD_MS);

		rc = wdt_feed(wdt_dev, wdt_channel);
		if (rc < 0) {
			printk("error: watchdog feed rejected: %d\n", rc);
			return;
		}
		printk("watchdog fed\n");
	}
}

int main(void)
{
	struct wdt_timeout_cfg cfg = {
		.window = {
			.min = WDT_WINDOW_MIN_MS,
			.max = WDT_WINDOW_MAX_MS,
		},
		.callback = NULL,
		.flags = WDT_FLAG_RESET_SOC,
	};
	int rc;

	if (!device_is_ready(wdt_dev)) {
		printk("error: watchdog device %s not ready\n", wdt_dev->name);
		return -ENODEV;
	}

	wdt_channel = wdt_install_timeout(wdt_dev, &cfg);
	if (wdt_channel < 0) {
		printk("error: windowed timeout not accepted: %d\n", wdt_channel);
		return wdt_channel;
	}

	rc = wdt_setup(wdt_dev, WDT_OPT_PAUSE_HALTED_BY_DBG);
	if (rc < 0) {
		printk("error: watchdog setup failed: %d\n", rc);
		return rc;
	}

	k_thread_create(&feeder_thread, feeder_stack,
			K_THREAD_STACK_SIZEOF(feeder_stack), feeder_entry,
			NULL, NULL, NULL, FEEDER_PRIORITY, 0, K_NO_WAIT);
	k_thread_name_set(&feeder_thread, "wdt_feeder");

	return 0;
}
