#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/drivers/watchdog.h>
#include <zephyr/sys/atomic.h>
#include <zephyr/sys/printk.h>

#define WDT_TIMEOUT_MS     2000U
#define SUPERVISE_MS       500
#define WORKER_STACK_SIZE  1024
#define WORKER_PRIORITY    7
#define UNITS_BEFORE_HANG  50

static const struct device *const wdt = DEVICE_DT_GET(DT_ALIAS(watchdog0));
static atomic_t progress = ATOMIC_INIT(0);

static void worker(void *p1, void *p2, void *p3)
{
	ARG_UNUSED(p1);
	ARG_UNUSED(p2);
	ARG_UNUSED(p3);

	for (int unit = 0; unit < UNITS_BEFORE_HANG; unit++) {
		k_msleep(100);
		atomic_inc(&progress);
	}
	k_sleep(K_FOREVER);
}

K_THREAD_DEFINE(worker_tid, WORKER_STACK_SIZE, worker, NULL, NULL, NULL,
		WORKER_PRIORITY, 0, 0);

int main(void)
{
	struct wdt_timeout_cfg cfg = {
		.window.min = 0U,
		.window.max = WDT_TIMEOUT_MS,
		.callback = NULL,
		.flags = WDT_FLAG_RESET_SOC,
	};
	atomic_val_t seen = 0;
	int channel;
	int ret;

	if (!device_is_ready(wdt)) {
		printk("watchdog %s not ready\n", wdt->name);
		return -ENODEV;
	}

	channel = wdt_install_timeout(wdt, &cfg);
	if (channel < 0) {
		printk("watchdog timeout install failed: %d\n", channel);
		return channel;
	}

	ret = wdt_setup(wdt, WDT_OPT_PAUSE_HALTED_BY_DBG);
	if (ret < 0) {
		printk("watchdog setup failed: %d\n", ret);
		return ret;
	}

	while (true) {
		k_msleep(SUPERVISE_MS);

		atomic_val_t now = atomic_get(&progress);

		if (now != seen) {
			seen = now;
			wdt_feed(wdt, channel);
			printk("worker ok, watchdog fed\n");
		} else {
			printk("worker stalled\n");
		}
	}
	return 0;
}
