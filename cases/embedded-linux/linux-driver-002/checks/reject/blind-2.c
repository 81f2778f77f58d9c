/* defect: schedule_timeout() is called without first setting TASK_INTERRUPTIBLE, so it returns immediately in TASK_RUNNING and the thread spins, logging as fast as it can.
 * breaks: "While it waits between ticks the thread must not keep a CPU busy."
 * must_fail: thread_sleeps_interruptibly_one_second
 */
// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/err.h>
#include <linux/jiffies.h>

static struct task_struct *hb_task;

static int heartbeat_thread(void *data)
{
	unsigned int tick = 0;

	while (!kthread_should_stop()) {
		tick++;
		pr_info("heartbeat: tick %u\n", tick);

		/*
		 * Sleep for one second. kthread_stop() wakes us with
		 * wake_up_process(), which ends the sleep early, so unload
		 * does not wait for the full timeout.
		 */
		if (kthread_should_stop())
			break;
		schedule_timeout(HZ);
	}

	return 0;
}

static int __init heartbeat_init(void)
{
	hb_task = kthread_run(heartbeat_thread, NULL, "heartbeat");
	if (IS_ERR(hb_task)) {
		int err = PTR_ERR(hb_task);

		hb_task = NULL;
		pr_err("heartbeat: failed to start thread: %d\n", err);
		return err;
	}

	return 0;
}

static void __exit heartbeat_exit(void)
{
	if (hb_task) {
		kthread_stop(hb_task);
		hb_task = NULL;
	}
}

module_init(heartbeat_init);
module_exit(heartbeat_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Kernel thread that logs a heartbeat once per second");
MODULE_AUTHOR("heartbeat example");
