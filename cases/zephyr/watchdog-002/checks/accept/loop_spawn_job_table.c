/*
 * Both workers are started by one k_thread_create() in a loop over a job table
 * and run the same entry function; each thread registers and feeds its own
 * task watchdog channel.
 */
#include <errno.h>
#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/reboot.h>
#include <zephyr/sys/util.h>
#include <zephyr/task_wdt/task_wdt.h>

#define JOB_STACK_BYTES 1024
#define JOB_PRIO        7

struct job {
	const char *name;
	uint32_t interval_ms;
	uint32_t reload_ms;
	int (*cycle)(void);
};

static int sensor_work(void)
{
	static unsigned int done;

	done++;
	return done > 30U ? -EIO : 0;
}

static int comms_work(void)
{
	return 0;
}

static const struct job jobs[] = {
	{ .name = "sensor", .interval_ms = 200U, .reload_ms = 1000U, .cycle = sensor_work },
	{ .name = "comms", .interval_ms = 500U, .reload_ms = 3000U, .cycle = comms_work },
};

K_THREAD_STACK_ARRAY_DEFINE(job_stacks, ARRAY_SIZE(jobs), JOB_STACK_BYTES);
static struct k_thread job_threads[ARRAY_SIZE(jobs)];

static void on_wdt_expired(int channel_id, void *user_data)
{
	const struct job *j = user_data;

	ARG_UNUSED(channel_id);
	printk("task watchdog expired: %s\n", j->name);
	sys_reboot(SYS_REBOOT_COLD);
}

static void job_main(void *p1, void *p2, void *p3)
{
	const struct job *j = p1;
	int ch;

	ARG_UNUSED(p2);
	ARG_UNUSED(p3);

	ch = task_wdt_add(j->reload_ms, on_wdt_expired, (void *)j);
	if (ch < 0) {
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
	int rc = task_wdt_init(fallback_wdt());

	if (rc < 0) {
		printk("task watchdog init failed: %d\n", rc);
		return rc;
	}

	for (size_t i = 0; i < ARRAY_SIZE(jobs); i++) {
		k_tid_t tid = k_thread_create(&job_threads[i], job_stacks[i],
					      K_THREAD_STACK_SIZEOF(job_stacks[i]), job_main,
					      (void *)&jobs[i], NULL, NULL, JOB_PRIO, 0, K_NO_WAIT);

		k_thread_name_set(tid, jobs[i].name);
	}

	printk("task watchdog running\n");
	return 0;
}
