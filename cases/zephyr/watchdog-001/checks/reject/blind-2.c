/* defect: the worker's "alive" flag is only ever set and never cleared by the supervisor, so after the worker hangs the stale flag still reads true and the watchdog keeps being fed forever.
 * breaks: "`main` is the supervisor: every 500 ms it decides whether the worker made progress since its previous check. Only then may the watchdog be fed, and it prints `worker ok, watchdog fed`; otherwise it prints `worker stalled` and lets the watchdog reset the system."
 * must_fail: feed_gated_on_health
 */
#include <errno.h>
#include <stdbool.h>
#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/watchdog.h>
#include <zephyr/sys/atomic.h>
#include <zephyr/sys/printk.h>

#define WORKER_STACK_SIZE 1024
#define WORKER_PRIORITY   7

static const struct device *const wdt_dev = DEVICE_DT_GET(DT_ALIAS(watchdog0));
static int wdt_channel;

static atomic_t worker_alive = ATOMIC_INIT(0);

static void worker_fn(void *p1, void *p2, void *p3)
{
	ARG_UNUSED(p1);
	ARG_UNUSED(p2);
	ARG_UNUSED(p3);

	for (int i = 0; i < 50; i++) {
		k_msleep(100);
		atomic_set(&worker_alive, 1);
	}

	printk("worker: simulating hang\n");
	k_sleep(K_FOREVER);
}

K_THREAD_DEFINE(worker_tid, WORKER_STACK_SIZE, worker_fn, NULL, NULL, NULL,
		WORKER_PRIORITY, 0, SYS_FOREVER_MS);

static int watchdog_start(void)
{
	struct wdt_timeout_cfg cfg = {
		.window = { .min = 0U, .max = 2000U },
		.callback = NULL,
		.flags = WDT_FLAG_RESET_SOC,
	};
	int ret;

	if (!device_is_ready(wdt_dev)) {
		printk("error: watchdog device not ready\n");
		return -ENODEV;
	}

	wdt_channel = wdt_install_timeout(wdt_dev, &cfg);
	if (wdt_channel < 0) {
		printk("error: cannot install watchdog timeout (%d)\n",
		       wdt_channel);
		return wdt_channel;
	}

	ret = wdt_setup(wdt_dev, WDT_OPT_PAUSE_HALTED_BY_DBG);
	if (ret < 0) {
		printk("error: watchdog setup failed (%d)\n", ret);
		return ret;
	}

	return 0;
}

int main(void)
{
	int ret = watchdog_start();

	if (ret < 0) {
		return ret;
	}

	k_thread_start(worker_tid);

	while (true) {
		k_msleep(500);

		if (atomic_get(&worker_alive)) {
			ret = wdt_feed(wdt_dev, wdt_channel);
			if (ret < 0) {
				printk("error: watchdog feed failed (%d)\n", ret);
			} else {
				printk("worker ok, watchdog fed\n");
			}
		} else {
			printk("worker stalled\n");
		}
	}

	return 0;
}
