/* defect: the timeout is installed with WDT_FLAG_RESET_CPU_CORE, which resets only the CPU core rather than the whole SoC.
 * breaks: "Either fault must reset the whole SoC."
 * must_fail: timeout_resets_soc
 */
#include <errno.h>

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/watchdog.h>
#include <zephyr/sys/printk.h>

#define WINDOW_MIN_MS  500U
#define WINDOW_MAX_MS  2000U
#define FEED_PERIOD_MS 1250U

static const struct device *const wdt_dev = DEVICE_DT_GET(DT_ALIAS(watchdog0));
static int wdt_channel;

K_THREAD_STACK_DEFINE(feeder_stack, 1024);
static struct k_thread feeder_thread;

static void feeder_entry(void *p1, void *p2, void *p3)
{
	ARG_UNUSED(p1);
	ARG_UNUSED(p2);
	ARG_UNUSED(p3);

	for (;;) {
		int rc;

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
		.window.min = WINDOW_MIN_MS,
		.window.max = WINDOW_MAX_MS,
		.callback = NULL,
		.flags = WDT_FLAG_RESET_CPU_CORE,
	};
	int rc;

	if (!device_is_ready(wdt_dev)) {
		printk("error: watchdog device not ready\n");
		return -ENODEV;
	}

	wdt_channel = wdt_install_timeout(wdt_dev, &cfg);
	if (wdt_channel < 0) {
		printk("error: cannot install windowed timeout: %d\n", wdt_channel);
		return wdt_channel;
	}

	rc = wdt_setup(wdt_dev, WDT_OPT_PAUSE_HALTED_BY_DBG);
	if (rc < 0) {
		printk("error: watchdog setup failed: %d\n", rc);
		return rc;
	}

	k_thread_create(&feeder_thread, feeder_stack,
			K_THREAD_STACK_SIZEOF(feeder_stack), feeder_entry,
			NULL, NULL, NULL, 5, 0, K_NO_WAIT);

	return 0;
}
