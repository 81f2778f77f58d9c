/* defect: when the watchdog0 device is not ready, main aborts with -ENODEV instead of continuing with the task watchdog alone.
 * breaks: "if the hardware watchdog is not usable, carry on with the task watchdog alone."
 * must_fail: hw_fallback_from_devicetree, init_checked_with_optional_fallback
 */
#include <errno.h>
#include <stdbool.h>

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/task_wdt/task_wdt.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/reboot.h>

#define WORKER_STACK_SIZE 1024
#define WORKER_PRIORITY   7

K_THREAD_STACK_DEFINE(sensor_stack, WORKER_STACK_SIZE);
K_THREAD_STACK_DEFINE(comms_stack, WORKER_STACK_SIZE);
static struct k_thread sensor_thread;
static struct k_thread comms_thread;

static K_SEM_DEFINE(registered_sem, 0, 2);

struct worker {
	const char *name;
	uint32_t period_ms;
	uint32_t reload_ms;
	int (*work)(void);
};

static void wdt_expired(int channel_id, void *user_data)
{
	ARG_UNUSED(channel_id);

	printk("task watchdog expired: %s\n", (const char *)user_data);
	sys_reboot(SYS_REBOOT_COLD);
}

static int sensor_work(void)
{
	static unsigned int cycles;

	if (cycles >= 30U) {
		return -EIO;
	}
	cycles++;
	return 0;
}

static int comms_work(void)
{
	return 0;
}

static void worker_entry(void *p1, void *p2, void *p3)
{
	const struct worker *w = p1;
	int channel;

	ARG_UNUSED(p2);
	ARG_UNUSED(p3);

	channel = task_wdt_add(w->reload_ms, wdt_expired, (void *)w->name);
	k_sem_give(&registered_sem);
	if (channel < 0) {
		printk("error: %s: task_wdt_add failed: %d\n", w->name, channel);
		return;
	}

	while (true) {
		if (w->work() == 0) {
			task_wdt_feed(channel);
		}
		k_msleep(w->period_ms);
	}
}

static const struct worker sensor = {
	.name = "sensor", .period_ms = 200, .reload_ms = 1000, .work = sensor_work,
};

static const struct worker comms = {
	.name = "comms", .period_ms = 500, .reload_ms = 3000, .work = comms_work,
};

int main(void)
{
	const struct device *const hw_wdt = DEVICE_DT_GET(DT_ALIAS(watchdog0));
	int rc;

	if (!device_is_ready(hw_wdt)) {
		printk("error: hardware watchdog %s not ready\n", hw_wdt->name);
		return -ENODEV;
	}

	rc = task_wdt_init(hw_wdt);
	if (rc != 0) {
		printk("error: task_wdt_init failed: %d\n", rc);
		return rc;
	}

	k_thread_create(&sensor_thread, sensor_stack,
			K_THREAD_STACK_SIZEOF(sensor_stack), worker_entry,
			(void *)&sensor, NULL, NULL, WORKER_PRIORITY, 0, K_NO_WAIT);
	k_thread_create(&comms_thread, comms_stack,
			K_THREAD_STACK_SIZEOF(comms_stack), worker_entry,
			(void *)&comms, NULL, NULL, WORKER_PRIORITY, 0, K_NO_WAIT);

	k_sem_take(&registered_sem, K_FOREVER);
	k_sem_take(&registered_sem, K_FOREVER);

	printk("task watchdog running\n");
	return 0;
}
