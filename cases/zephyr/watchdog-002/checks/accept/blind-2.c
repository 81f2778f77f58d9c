#include <errno.h>

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/task_wdt/task_wdt.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/reboot.h>

#define STACK_SIZE 1024
#define PRIO       7

static void sensor_entry(void *p1, void *p2, void *p3);
static void comms_entry(void *p1, void *p2, void *p3);

/* Created suspended; started only once their channel exists. */
K_THREAD_DEFINE(sensor_tid, STACK_SIZE, sensor_entry, NULL, NULL, NULL,
		PRIO, 0, K_TICKS_FOREVER);
K_THREAD_DEFINE(comms_tid, STACK_SIZE, comms_entry, NULL, NULL, NULL,
		PRIO, 0, K_TICKS_FOREVER);

static int sensor_channel = -1;
static int comms_channel = -1;

static void on_task_wdt_expiry(int channel_id, void *user_data)
{
	ARG_UNUSED(channel_id);

	printk("task watchdog expired: %s\n", (const char *)user_data);
	sys_reboot(SYS_REBOOT_COLD);
}

/* Simulated sensor acquisition: healthy for 30 cycles, then broken. */
static int sensor_cycle(void)
{
	static uint32_t n;

	if (n < 30U) {
		n++;
		return 0;
	}
	return -EIO;
}

/* Simulated communication cycle: always healthy. */
static int comms_cycle(void)
{
	return 0;
}

static void sensor_entry(void *p1, void *p2, void *p3)
{
	ARG_UNUSED(p1);
	ARG_UNUSED(p2);
	ARG_UNUSED(p3);

	for (;;) {
		if (sensor_cycle() == 0) {
			task_wdt_feed(sensor_channel);
		}
		k_sleep(K_MSEC(200));
	}
}

static void comms_entry(void *p1, void *p2, void *p3)
{
	ARG_UNUSED(p1);
	ARG_UNUSED(p2);
	ARG_UNUSED(p3);

	for (;;) {
		if (comms_cycle() == 0) {
			task_wdt_feed(comms_channel);
		}
		k_sleep(K_MSEC(500));
	}
}

int main(void)
{
	const struct device *hw = NULL;
	int ret;

#if DT_NODE_EXISTS(DT_ALIAS(watchdog0))
	hw = DEVICE_DT_GET(DT_ALIAS(watchdog0));
	if (!device_is_ready(hw)) {
		printk("watchdog0 not ready, continuing without hardware fallback\n");
		hw = NULL;
	}
#else
	printk("no watchdog0 alias, continuing without hardware fallback\n");
#endif

	ret = task_wdt_init(hw);
	if (ret < 0) {
		printk("task_wdt_init failed: %d\n", ret);
		return ret;
	}

	sensor_channel = task_wdt_add(1000U, on_task_wdt_expiry, "sensor");
	if (sensor_channel < 0) {
		printk("cannot supervise sensor thread: %d\n", sensor_channel);
	} else {
		k_thread_start(sensor_tid);
	}

	comms_channel = task_wdt_add(3000U, on_task_wdt_expiry, "comms");
	if (comms_channel < 0) {
		printk("cannot supervise comms thread: %d\n", comms_channel);
	} else {
		k_thread_start(comms_tid);
	}

	printk("task watchdog running\n");
	return 0;
}
