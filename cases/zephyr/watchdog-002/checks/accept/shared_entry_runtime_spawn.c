/*
 * Both workers run one entry function driven by a constant job descriptor.
 * The task watchdog is initialised first and the workers are only created
 * afterwards, so no start-up gate is needed; each worker still registers and
 * feeds its own channel.
 */
#include <errno.h>
#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/reboot.h>
#include <zephyr/task_wdt/task_wdt.h>

#define JOB_STACK_BYTES 1024
#define JOB_PRIO        7

struct job {
	const char *name;
	uint32_t interval_ms;
	uint32_t reload_ms;
	int (*cycle)(void);
};

static void on_wdt_expired(int channel_id, void *user_data)
{
	const struct job *j = user_data;

	ARG_UNUSED(channel_id);
	printk("task watchdog expired: %s\n", j->name);
	sys_reboot(SYS_REBOOT_COLD);
}

/* Simulated work: healthy for 30 cycles, then broken for good. */
static int sensor_work(void)
{
	static unsigned int done;

	if (done >= 30U) {
		return -EIO;
	}
	done++;
	return 0;
}

static int comms_work(void)
{
	return 0;
}

static const struct job sensor_job = {
	.name = "sensor", .interval_ms = 200U, .reload_ms = 1000U, .cycle = sensor_work,
};
static const struct job comms_job = {
	.name = "comms", .interval_ms = 500U, .reload_ms = 3000U, .cycle = comms_work,
};

K_THREAD_STACK_DEFINE(sensor_stack, JOB_STACK_BYTES);
K_THREAD_STACK_DEFINE(comms_stack, JOB_STACK_BYTES);
static struct k_thread sensor_thr;
static struct k_thread comms_thr;

static void job_main(void *p1, void *p2, void *p3)
{
	const struct job *j = p1;
	int ch;

	ARG_UNUSED(p2);
	ARG_UNUSED(p3);

	ch = task_wdt_add(j->reload_ms, on_wdt_expired, (void *)j);
	if (ch < 0) {
		/* Refuse to work without supervision. */
		printk("%s: no watchdog channel (%d), not running\n", j->name, ch);
		return;
	}

	for (;;) {
		int err = j->cycle();

		if (err != 0) {
			printk("%s: cycle failed (%d)\n", j->name, err);
		} else {
			task_wdt_feed(ch);
		}
		k_sleep(K_MSEC(j->interval_ms));
	}
}

/* The hardware watchdog behind the task watchdog, or NULL if unusable. */
static const struct device *fallback_wdt(void)
{
#if DT_NODE_HAS_STATUS(DT_ALIAS(watchdog0), okay)
	const struct device *dev = DEVICE_DT_GET(DT_ALIAS(watchdog0));

	if (device_is_ready(dev)) {
		return dev;
	}
	printk("watchdog0 not ready, task watchdog runs without fallback\n");
#endif
	return NULL;
}

int main(void)
{
	k_tid_t tid;
	int rc = task_wdt_init(fallback_wdt());

	if (rc < 0) {
		printk("task watchdog init failed: %d\n", rc);
		return rc;
	}

	tid = k_thread_create(&sensor_thr, sensor_stack, K_THREAD_STACK_SIZEOF(sensor_stack),
			      job_main, (void *)&sensor_job, NULL, NULL, JOB_PRIO, 0, K_NO_WAIT);
	k_thread_name_set(tid, sensor_job.name);

	tid = k_thread_create(&comms_thr, comms_stack, K_THREAD_STACK_SIZEOF(comms_stack),
			      job_main, (void *)&comms_job, NULL, NULL, JOB_PRIO, 0, K_NO_WAIT);
	k_thread_name_set(tid, comms_job.name);

	printk("task watchdog running\n");
	return 0;
}
