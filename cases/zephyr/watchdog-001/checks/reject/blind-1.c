/* defect: wdt_setup is given WDT_OPT_PAUSE_IN_SLEEP instead of WDT_OPT_PAUSE_HALTED_BY_DBG, so the watchdog keeps running under a debugger halt and (since every thread sleeps once the worker hangs) stops counting while the CPU idles.
 * breaks: "The watchdog must not bite while the CPU is halted by a debugger."
 * must_fail: window_and_debug_options
 */
#include <errno.h>
#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/watchdog.h>
#include <zephyr/sys/atomic.h>
#include <zephyr/sys/printk.h>

#define WDT_TIMEOUT_MS       2000U
#define SUPERVISOR_PERIOD_MS 500
#define WORK_UNIT_MS         100
#define UNITS_BEFORE_HANG    50

static const struct device *const wdt = DEVICE_DT_GET(DT_ALIAS(watchdog0));

K_THREAD_STACK_DEFINE(worker_stack, 1024);
static struct k_thread worker_thread;

static atomic_t worker_progress = ATOMIC_INIT(0);

static void worker_entry(void *p1, void *p2, void *p3)
{
	ARG_UNUSED(p1);
	ARG_UNUSED(p2);
	ARG_UNUSED(p3);

	for (int unit = 0; unit < UNITS_BEFORE_HANG; unit++) {
		k_msleep(WORK_UNIT_MS);
		atomic_inc(&worker_progress);
	}

	printk("worker: hanging\n");
	k_sleep(K_FOREVER);
}

int main(void)
{
	struct wdt_timeout_cfg cfg = {
		.window.min = 0U,
		.window.max = WDT_TIMEOUT_MS,
		.callback = NULL,
		.flags = WDT_FLAG_RESET_SOC,
	};
	atomic_val_t last;
	int channel;
	int err;

	if (!device_is_ready(wdt)) {
		printk("watchdog %s not ready\n", wdt->name);
		return -ENODEV;
	}

	channel = wdt_install_timeout(wdt, &cfg);
	if (channel < 0) {
		printk("wdt_install_timeout failed: %d\n", channel);
		return channel;
	}

	err = wdt_setup(wdt, WDT_OPT_PAUSE_IN_SLEEP);
	if (err < 0) {
		printk("wdt_setup failed: %d\n", err);
		return err;
	}

	last = atomic_get(&worker_progress);

	k_thread_create(&worker_thread, worker_stack,
			K_THREAD_STACK_SIZEOF(worker_stack), worker_entry,
			NULL, NULL, NULL, 7, 0, K_NO_WAIT);

	while (1) {
		atomic_val_t now;

		k_msleep(SUPERVISOR_PERIOD_MS);
		now = atomic_get(&worker_progress);

		if (now != last) {
			last = now;
			err = wdt_feed(wdt, channel);
			if (err < 0) {
				printk("wdt_feed failed: %d\n", err);
			} else {
				printk("worker ok, watchdog fed\n");
			}
		} else {
			printk("worker stalled\n");
		}
	}

	return 0;
}
