/*
 * Watchdog-backed supervision of a worker thread (Zephyr 4.1).
 *
 * - watchdog0 (devicetree alias), 2000 ms timeout, SoC reset, paused while
 *   the CPU is halted by a debugger;
 * - worker (prio 7, 1 KiB stack): one 100 ms unit of work, then raises a
 *   heartbeat flag; hangs forever after 50 units;
 * - main: on a drift-free 500 ms periodic timer, atomically takes and clears
 *   the heartbeat; feeds the watchdog only if it was raised.
 */
#include <errno.h>
#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/watchdog.h>
#include <zephyr/sys/atomic.h>
#include <zephyr/sys/printk.h>

#define WDT_NODE DT_ALIAS(watchdog0)

#if !DT_NODE_HAS_STATUS(WDT_NODE, okay)
#error "devicetree alias watchdog0 is missing or disabled"
#endif

static void worker(void *a, void *b, void *c);

/* Created suspended-at-start (no automatic start); main starts it once the
 * watchdog is running.
 */
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
		k_sleep(K_MSEC(100));       /* one unit of work */
		done++;
		atomic_set(&heartbeat, 1);  /* progress report */
	}

	printk("worker: %u units done, now hanging\n", done);
	for (;;) {
		k_sleep(K_FOREVER);
	}
}

static int watchdog_init(const struct device *dev)
{
	const struct wdt_timeout_cfg cfg = {
		.window.min = 0U,
		.window.max = 2000U,
		.callback = NULL,
		.flags = WDT_FLAG_RESET_SOC,
	};
	int channel;
	int ret;

	if (!device_is_ready(dev)) {
		printk("watchdog error: %s not ready\n", dev->name);
		return -ENODEV;
	}

	channel = wdt_install_timeout(dev, &cfg);
	if (channel < 0) {
		printk("watchdog error: cannot install timeout (err %d)\n",
		       channel);
		return channel;
	}

	ret = wdt_setup(dev, WDT_OPT_PAUSE_HALTED_BY_DBG);
	if (ret < 0) {
		printk("watchdog error: setup failed (err %d)\n", ret);
		return ret;
	}

	return channel;
}

int main(void)
{
	const struct device *const wdt_dev = DEVICE_DT_GET(WDT_NODE);
	int channel;

	channel = watchdog_init(wdt_dev);
	if (channel < 0) {
		return channel;
	}

	atomic_clear(&heartbeat);
	k_thread_start(worker_tid);
	k_timer_start(&supervisor_tick, K_MSEC(500), K_MSEC(500));

	for (;;) {
		k_timer_status_sync(&supervisor_tick);

		/* Take and reset the heartbeat in one atomic step. */
		if (atomic_clear(&heartbeat) != 0) {
			int ret = wdt_feed(wdt_dev, channel);

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
