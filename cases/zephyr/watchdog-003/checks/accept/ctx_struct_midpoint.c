/*
 * Windowed watchdog: the device and its channel live in one context struct
 * that is handed to the feeder thread; the feed interval is the middle of
 * the open window.
 */
#include <errno.h>
#include <zephyr/kernel.h>
#include <zephyr/drivers/watchdog.h>

#define WIN_OPEN_MS      500U   /* a feed before this is a fault */
#define WIN_CLOSE_MS     2000U  /* no feed by this is a fault */
#define FEED_INTERVAL_MS ((WIN_OPEN_MS + WIN_CLOSE_MS) / 2U)

#define FEEDER_STACK_BYTES 1024
#define FEEDER_PRIO        5

struct wd_ctx {
	const struct device *dev;
	int channel;
};

static struct wd_ctx wd = {
	.dev = DEVICE_DT_GET(DT_ALIAS(watchdog0)),
	.channel = -1,
};

static struct k_thread feeder_tcb;
static K_THREAD_STACK_DEFINE(feeder_area, FEEDER_STACK_BYTES);

static int wd_configure(struct wd_ctx *ctx)
{
	struct wdt_timeout_cfg tmo = {0};
	int rc;

	if (!device_is_ready(ctx->dev)) {
		printk("error: watchdog device unavailable\n");
		return -ENODEV;
	}

	tmo.window.min = WIN_OPEN_MS;
	tmo.window.max = WIN_CLOSE_MS;
	tmo.callback = NULL;
	tmo.flags = WDT_FLAG_RESET_SOC;

	ctx->channel = wdt_install_timeout(ctx->dev, &tmo);
	if (ctx->channel < 0) {
		printk("error: window %u..%u ms refused (%d)\n", WIN_OPEN_MS, WIN_CLOSE_MS,
		       ctx->channel);
		return ctx->channel;
	}

	rc = wdt_setup(ctx->dev, WDT_OPT_PAUSE_HALTED_BY_DBG);
	if (rc != 0) {
		printk("error: cannot start watchdog (%d)\n", rc);
		return rc;
	}
	return 0;
}

static void feeder_entry(void *arg, void *unused1, void *unused2)
{
	const struct wd_ctx *ctx = arg;

	ARG_UNUSED(unused1);
	ARG_UNUSED(unused2);

	for (unsigned int n = 1U;; n++) {
		k_sleep(K_MSEC(FEED_INTERVAL_MS));

		int rc = wdt_feed(ctx->dev, ctx->channel);

		if (rc != 0) {
			printk("error: feed %u rejected (%d), feeder stops\n", n, rc);
			break;
		}
		printk("watchdog fed\n");
	}
}

int main(void)
{
	int rc = wd_configure(&wd);

	if (rc < 0) {
		return rc;
	}

	k_thread_create(&feeder_tcb, feeder_area, K_THREAD_STACK_SIZEOF(feeder_area),
			feeder_entry, &wd, NULL, NULL, FEEDER_PRIO, 0, K_NO_WAIT);
	return 0;
}
