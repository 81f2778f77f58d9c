/* defect: the feeder feeds before its first sleep, so the first feed lands right after wdt_setup(), well before the 500 ms window opens.
 * breaks: "Feeding is done by a dedicated thread (1 KiB stack, priority 5) that feeds periodically, with a period chosen so that every feed lands safely inside the allowed window, and prints `watchdog fed` after each successful feed."
 * must_fail: feed_period_inside_window
 */
#include <errno.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/watchdog.h>
#include <zephyr/sys/printk.h>

#define WDT_NODE DT_ALIAS(watchdog0)

#define EARLY_LIMIT_MS 500
#define LATE_LIMIT_MS  2000
#define FEED_PERIOD_MS 1000

static void feeder(void *p1, void *p2, void *p3);

K_THREAD_DEFINE(feeder_tid, 1024, feeder, NULL, NULL, NULL, 5, 0,
		K_TICKS_FOREVER);

static const struct device *const wdt = DEVICE_DT_GET(WDT_NODE);
static int channel_id = -1;

static int watchdog_start(void)
{
	const struct wdt_timeout_cfg cfg = {
		.flags = WDT_FLAG_RESET_SOC,
		.window.min = EARLY_LIMIT_MS,
		.window.max = LATE_LIMIT_MS,
		.callback = NULL,
	};
	int err;

	if (!device_is_ready(wdt)) {
		printk("watchdog0 is not ready\n");
		return -ENODEV;
	}

	err = wdt_install_timeout(wdt, &cfg);
	if (err < 0) {
		printk("wdt_install_timeout failed: %d\n", err);
		return err;
	}
	channel_id = err;

	err = wdt_setup(wdt, WDT_OPT_PAUSE_HALTED_BY_DBG);
	if (err < 0) {
		printk("wdt_setup failed: %d\n", err);
		return err;
	}

	return 0;
}

static void feeder(void *p1, void *p2, void *p3)
{
	int err;

	ARG_UNUSED(p1);
	ARG_UNUSED(p2);
	ARG_UNUSED(p3);

	for (;;) {
		err = wdt_feed(wdt, channel_id);
		if (err != 0) {
			printk("watchdog feed failed: %d, stopping\n", err);
			break;
		}
		printk("watchdog fed\n");

		k_sleep(K_MSEC(FEED_PERIOD_MS));
	}
}

int main(void)
{
	int err = watchdog_start();

	if (err < 0) {
		printk("error: watchdog not started (%d)\n", err);
		return err;
	}

	k_thread_start(feeder_tid);
	return 0;
}
