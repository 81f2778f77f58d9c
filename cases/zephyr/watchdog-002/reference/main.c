#include <errno.h>
#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/reboot.h>
#include <zephyr/task_wdt/task_wdt.h>

#define WORKER_STACK_SIZE 1024
#define WORKER_PRIORITY   7

static const struct device *const hw_wdt = DEVICE_DT_GET_OR_NULL(DT_ALIAS(watchdog0));
static K_SEM_DEFINE(wdt_ready, 0, 2);
static unsigned int sensor_cycles;

static void supervision_expired(int channel_id, void *user_data)
{
	ARG_UNUSED(channel_id);

	printk("task watchdog expired: %s\n", k_thread_name_get((k_tid_t)user_data));
	sys_reboot(SYS_REBOOT_COLD);
}

static int sensor_cycle(void)
{
	return (++sensor_cycles > 30U) ? -EIO : 0;
}

static int comms_cycle(void)
{
	return 0;
}

static void sensor_thread(void *p1, void *p2, void *p3)
{
	ARG_UNUSED(p1);
	ARG_UNUSED(p2);
	ARG_UNUSED(p3);

	k_sem_take(&wdt_ready, K_FOREVER);

	int channel = task_wdt_add(1000U, supervision_expired, (void *)k_current_get());

	if (channel < 0) {
		printk("sensor: task_wdt_add failed: %d\n", channel);
		return;
	}

	while (true) {
		if (sensor_cycle() == 0) {
			task_wdt_feed(channel);
		}
		k_msleep(200);
	}
}

static void comms_thread(void *p1, void *p2, void *p3)
{
	ARG_UNUSED(p1);
	ARG_UNUSED(p2);
	ARG_UNUSED(p3);

	k_sem_take(&wdt_ready, K_FOREVER);

	int channel = task_wdt_add(3000U, supervision_expired, (void *)k_current_get());

	if (channel < 0) {
		printk("comms: task_wdt_add failed: %d\n", channel);
		return;
	}

	while (true) {
		if (comms_cycle() == 0) {
			task_wdt_feed(channel);
		}
		k_msleep(500);
	}
}

K_THREAD_DEFINE(sensor, WORKER_STACK_SIZE, sensor_thread, NULL, NULL, NULL,
		WORKER_PRIORITY, 0, 0);
K_THREAD_DEFINE(comms, WORKER_STACK_SIZE, comms_thread, NULL, NULL, NULL,
		WORKER_PRIORITY, 0, 0);

int main(void)
{
	const struct device *fallback = hw_wdt;
	int ret;

	if (fallback != NULL && !device_is_ready(fallback)) {
		printk("hardware watchdog not ready, no fallback\n");
		fallback = NULL;
	}

	ret = task_wdt_init(fallback);
	if (ret != 0) {
		printk("task_wdt_init failed: %d\n", ret);
		return ret;
	}

	k_sem_give(&wdt_ready);
	k_sem_give(&wdt_ready);
	printk("task watchdog running\n");
	return 0;
}
