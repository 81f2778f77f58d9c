/*
 * Two worker threads, each supervised by its own task watchdog channel,
 * with the hardware watchdog (alias watchdog0) as fallback.
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

#define SENSOR_PERIOD_MS  200
#define SENSOR_RELOAD_MS  1000
#define COMMS_PERIOD_MS   500
#define COMMS_RELOAD_MS   3000

#define SENSOR_GOOD_CYCLES 30

K_THREAD_STACK_DEFINE(sensor_stack, WORKER_STACK_SIZE);
K_THREAD_STACK_DEFINE(comms_stack, WORKER_STACK_SIZE);
static struct k_thread sensor_thread;
static struct k_thread comms_thread;

/* Given by each worker once it has tried to register its channel. */
static K_SEM_DEFINE(registered_sem, 0, 2);
static atomic_t registered_ok;

struct worker {
	const char *name;
	uint32_t period_ms;
	uint32_t reload_ms;
	int (*work)(void);
};

static void wdt_expired(int channel_id, void *user_data)
{
	const char *name = user_data;

	ARG_UNUSED(channel_id);

	printk("task watchdog expired: %s\n", name);
	sys_reboot(SYS_REBOOT_COLD);
}

static int sensor_work(void)
{
	static unsigned int cycles;

	if (cycles >= SENSOR_GOOD_CYCLES) {
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
	if (channel < 0) {
		printk("error: %s: task_wdt_add failed: %d\n", w->name, channel);
		k_sem_give(&registered_sem);
		/* Never run without supervision. */
		return;
	}

	atomic_inc(&registered_ok);
	k_sem_give(&registered_sem);

	while (true) {
		int rc = w->work();

		if (rc == 0) {
			task_wdt_feed(channel);
		} else {
			printk("%s: work cycle failed: %d\n", w->name, rc);
		}

		k_msleep(w->period_ms);
	}
}

static const struct worker sensor = {
	.name = "sensor",
	.period_ms = SENSOR_PERIOD_MS,
	.reload_ms = SENSOR_RELOAD_MS,
	.work = sensor_work,
};

static const struct worker comms = {
	.name = "comms",
	.period_ms = COMMS_PERIOD_MS,
	.reload_ms = COMMS_RELOAD_MS,
	.work = comms_work,
};

int main(void)
{
	const struct device *hw_wdt = DEVICE_DT_GET_OR_NULL(DT_ALIAS(watchdog0));
	int rc;

	if (hw_wdt == NULL || !device_is_ready(hw_wdt)) {
		printk("hardware watchdog not usable, task watchdog only\n");
		hw_wdt = NULL;
	}

	rc = task_wdt_init(hw_wdt);
	if (rc != 0) {
		printk("error: task_wdt_init failed: %d\n", rc);
		return rc < 0 ? rc : -EIO;
	}

	k_thread_create(&sensor_thread, sensor_stack,
			K_THREAD_STACK_SIZEOF(sensor_stack), worker_entry,
			(void *)&sensor, NULL, NULL, WORKER_PRIORITY, 0,
			K_NO_WAIT);
	k_thread_name_set(&sensor_thread, "sensor");

	k_thread_create(&comms_thread, comms_stack,
			K_THREAD_STACK_SIZEOF(comms_stack), worker_entry,
			(void *)&comms, NULL, NULL, WORKER_PRIORITY, 0,
			K_NO_WAIT);
	k_thread_name_set(&comms_thread, "comms");

	k_sem_take(&registered_sem, K_FOREVER);
	k_sem_take(&registered_sem, K_FOREVER);

	if (atomic_get(&registered_ok) != 2) {
		printk("warning: not every worker is supervised\n");
	}

	printk("task watchdog running\n");
	return 0;
}
