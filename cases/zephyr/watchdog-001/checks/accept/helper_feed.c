#include <zephyr/kernel.h>
#include <zephyr/drivers/watchdog.h>

#define WDOG_NODE DT_ALIAS(watchdog0)

static const struct device *wdog = DEVICE_DT_GET(WDOG_NODE);
static atomic_t beats;
static int wdt_channel_id;

static void work_fn(void *a, void *b, void *c)
{
	for (int i = 0; i < 50; i++) {
		k_sleep(K_MSEC(100));
		atomic_inc(&beats);
	}
	for (;;) {
		k_sleep(K_FOREVER);
	}
}

K_THREAD_DEFINE(work, 1024, work_fn, NULL, NULL, NULL, 7, 0, 0);

static int watchdog_start(void)
{
	struct wdt_timeout_cfg cfg = {
		.flags = WDT_FLAG_RESET_SOC,
		.window = { .min = 0, .max = 2000 },
	};

	if (!device_is_ready(wdog)) {
		return -ENODEV;
	}
	wdt_channel_id = wdt_install_timeout(wdog, &cfg);
	if (wdt_channel_id < 0) {
		return wdt_channel_id;
	}
	return wdt_setup(wdog, WDT_OPT_PAUSE_HALTED_BY_DBG);
}

int main(void)
{
	atomic_val_t last = atomic_get(&beats);
	int err = watchdog_start();

	if (err) {
		printk("watchdog init failed: %d\n", err);
		return err;
	}
	for (;;) {
		k_sleep(K_MSEC(500));
		atomic_val_t cur = atomic_get(&beats);

		if (cur == last) {
			printk("worker stalled\n");
			continue;
		}
		last = cur;
		wdt_feed(wdog, wdt_channel_id);
		printk("worker ok, watchdog fed\n");
	}
}
