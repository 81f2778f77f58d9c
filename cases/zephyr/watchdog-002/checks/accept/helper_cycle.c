#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/sys/reboot.h>
#include <zephyr/task_wdt/task_wdt.h>

#define WDT_NODE DT_ALIAS(watchdog0)

static const struct device *hw = DEVICE_DT_GET_OR_NULL(WDT_NODE);
static K_EVENT_DEFINE(started);
static int sensor_runs;

static void on_expiry(int id, void *arg)
{
	printk("task watchdog expired: %s\n", (const char *)arg);
	sys_reboot(SYS_REBOOT_COLD);
}

static int do_sensor(void)
{
	sensor_runs++;
	return sensor_runs > 30 ? -EIO : 0;
}

static int do_comms(void)
{
	return 0;
}

static void sensor_entry(void *a, void *b, void *c)
{
	k_event_wait(&started, BIT(0), false, K_FOREVER);
	int id = task_wdt_add(1000, on_expiry, "sensor");
	if (id < 0) {
		return;
	}
	for (;;) {
		k_msleep(200);
		if (do_sensor() < 0) {
			continue;
		}
		task_wdt_feed(id);
	}
}

static void comms_entry(void *a, void *b, void *c)
{
	k_event_wait(&started, BIT(0), false, K_FOREVER);
	int id = task_wdt_add(3000, on_expiry, "comms");
	if (id < 0) {
		return;
	}
	for (;;) {
		k_msleep(500);
		if (do_comms() < 0) {
			continue;
		}
		task_wdt_feed(id);
	}
}

K_THREAD_DEFINE(sensor, 1024, sensor_entry, NULL, NULL, NULL, 7, 0, 0);
K_THREAD_DEFINE(comms, 1024, comms_entry, NULL, NULL, NULL, 7, 0, 0);

int main(void)
{
	if (hw && !device_is_ready(hw)) {
		hw = NULL;
	}
	int err = task_wdt_init(hw);
	if (err < 0) {
		printk("task_wdt_init: %d\n", err);
		return err;
	}
	k_event_post(&started, BIT(0));
	printk("task watchdog running\n");
	return 0;
}
