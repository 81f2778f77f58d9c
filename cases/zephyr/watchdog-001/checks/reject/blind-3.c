/* defect: the result of wdt_install_timeout is stored as the channel but never checked, so a failed timeout installation is ignored and main goes on (feeding an invalid channel) instead of returning the negative errno.
 * breaks: "If the watchdog is not usable or cannot be configured, print an error and return from `main` with a negative errno."
 * must_fail: watchdog_config_errors_handled
 */
#include <errno.h>
#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/watchdog.h>
#include <zephyr/sys/atomic.h>
#include <zephyr/sys/printk.h>

#define WDT_NODE DT_ALIAS(watchdog0)

static void worker(void *a, void *b, void *c);

K_THREAD_DEFINE(worker_tid, 1024, worker, NULL, NULL, NULL, 7, 0,
		SYS_FOREVER_MS);
K_TIMER_DEFINE(supervisor_tick, NULL, NULL);

static atomic_t heartbeat;

static void worker(void *a, void *b, void *c)
{
	unsigned int done = 0;

	ARG_UNUSED(a);
	ARG_UNUSED(b);
	ARG_UNUSED(c);

	while (done < 50U) {
		k_sleep(K_MSEC(100));
		done++;
		atomic_set(&heartbeat, 1);
	}

	printk("worker: %u units done, now hanging\n", done);
	k_sleep(K_FOREVER);
}

int main(void)
{
	const struct device *const wdt_dev = DEVICE_DT_GET(WDT_NODE);
	const struct wdt_timeout_cfg cfg = {
		.window.min = 0U,
		.window.max = 2000U,
		.callback = NULL,
		.flags = WDT_FLAG_RESET_SOC,
	};
	int channel;
	int ret;

	if (!device_is_ready(wdt_dev)) {
		printk("watchdog error: %s not ready\n", wdt_dev->name);
		return -ENODEV;
	}

	channel = wdt_install_timeout(wdt_dev, &cfg);

	ret = wdt_setup(wdt_dev, WDT_OPT_PAUSE_HALTED_BY_DBG);
	if (ret < 0) {
		printk("watchdog error: setup failed (err %d)\n", ret);
		return ret;
	}

	atomic_clear(&heartbeat);
	k_thread_start(worker_tid);
	k_timer_start(&supervisor_tick, K_MSEC(500), K_MSEC(500));

	for (;;) {
		k_timer_status_sync(&supervisor_tick);

		if (atomic_clear(&heartbeat) != 0) {
			ret = wdt_feed(wdt_dev, channel);
			if (ret == 0) {
				printk("worker ok, watchdog fed\n");
			} else {
				printk("watchdog feed failed (err %d)\n", ret);
			}
		} else {
			printk("worker stalled\n");
		}
	}

	return 0;
}
