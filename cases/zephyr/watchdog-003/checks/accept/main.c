#include <zephyr/kernel.h>
#include <zephyr/drivers/watchdog.h>

static const struct device *wd = DEVICE_DT_GET(DT_ALIAS(watchdog0));
static int chan;
static K_SEM_DEFINE(go, 0, 1);

static void feed_fn(void *a, void *b, void *c)
{
	k_sem_take(&go, K_FOREVER);
	for (;;) {
		k_sleep(K_MSEC(1200));
		if (wdt_feed(wd, chan) != 0) {
			printk("feed rejected\n");
			break;
		}
		printk("watchdog fed\n");
	}
}

K_THREAD_DEFINE(feed_tid, 1024, feed_fn, NULL, NULL, NULL, 5, 0, 0);

int main(void)
{
	struct wdt_timeout_cfg cfg = {
		.window = { .min = 500, .max = 2000 },
		.flags = WDT_FLAG_RESET_SOC,
	};
	int err;

	if (!device_is_ready(wd)) {
		return -ENODEV;
	}
	chan = wdt_install_timeout(wd, &cfg);
	if (chan < 0) {
		printk("install failed %d\n", chan);
		return chan;
	}
	err = wdt_setup(wd, WDT_OPT_PAUSE_HALTED_BY_DBG);
	if (err < 0) {
		printk("setup failed %d\n", err);
		return err;
	}
	k_sem_give(&go);
	return 0;
}
