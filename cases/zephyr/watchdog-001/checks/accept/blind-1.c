/*
 * Hardware watchdog supervising a worker thread.
 *
 * The worker bumps a progress counter after every unit of work. main()
 * checks the counter every 500 ms and feeds the watchdog only if it moved
 * since the previous check. After 50 units the worker hangs, the counter
 * stops moving, the watchdog is no longer fed and resets the SoC 2 s later.
 */
#include <errno.h>
#include <stdint.h>
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

#define WORKER_STACK_SIZE    1024
#define WORKER_PRIORITY      7

static const struct device *const wdt = DEVICE_DT_GET(DT_ALIAS(watchdog0));

K_THREAD_STACK_DEFINE(worker_stack, WORKER_STACK_SIZE);
static struct k_thread worker_thread;

/* Number of completed work units; written by the worker, read by main. */
static atomic_t worker_progress = ATOMIC_INIT(0);

static void worker_entry(void *p1, void *p2, void *p3)
{
	ARG_UNUSED(p1);
	ARG_UNUSED(p2);
	ARG_UNUSED(p3);

	for (int unit = 1; unit <= UNITS_BEFORE_HANG; unit++) {
		k_msleep(WORK_UNIT_MS);          /* simulated unit of work */
		atomic_inc(&worker_progress);    /* report progress */
	}

	printk("worker: simulating a hang after %d units\n", UNITS_BEFORE_HANG);
	k_sleep(K_FOREVER);
}

int main(void)
{
	struct wdt_timeout_cfg wdt_cfg = {
		.window = {
			.min = 0U,
			.max = WDT_TIMEOUT_MS,
		},
		.callback = NULL,
		.flags = WDT_FLAG_RESET_SOC,
	};
	atomic_val_t last_seen;
	int channel;
	int err;

	if (!device_is_ready(wdt)) {
		printk("error: watchdog device %s is not ready\n", wdt->name);
		return -ENODEV;
	}

	channel = wdt_install_timeout(wdt, &wdt_cfg);
	if (channel < 0) {
		printk("error: watchdog install timeout failed (%d)\n", channel);
		return channel;
	}

	err = wdt_setup(wdt, WDT_OPT_PAUSE_HALTED_BY_DBG);
	if (err < 0) {
		printk("error: watchdog setup failed (%d)\n", err);
		return err;
	}

	printk("watchdog armed: %u ms timeout, SoC reset\n", WDT_TIMEOUT_MS);

	last_seen = atomic_get(&worker_progress);

	k_thread_create(&worker_thread, worker_stack,
			K_THREAD_STACK_SIZEOF(worker_stack), worker_entry,
			NULL, NULL, NULL, WORKER_PRIORITY, 0, K_NO_WAIT);
	k_thread_name_set(&worker_thread, "worker");

	while (true) {
		atomic_val_t now;

		k_msleep(SUPERVISOR_PERIOD_MS);

		now = atomic_get(&worker_progress);
		if (now != last_seen) {
			last_seen = now;
			err = wdt_feed(wdt, channel);
			if (err < 0) {
				printk("error: watchdog feed failed (%d)\n", err);
			} else {
				printk("worker ok, watchdog fed\n");
			}
		} else {
			printk("worker stalled\n");
		}
	}

	return 0;
}
