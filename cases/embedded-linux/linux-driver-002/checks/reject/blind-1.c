/* defect: kthread_run() returns an ERR_PTR on failure, never NULL, so the NULL check misses the error and the load "succeeds" with a bogus task pointer (and would report -ENOMEM instead of the kernel's error anyway).
 * breaks: "If the thread cannot be started, the load must fail with the error the kernel reported."
 * must_fail: kthread_start_error_checked
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
		 * wake_up_process(), which ends an interruptible sleep early,
		 * so unload does not wait for the full timeout.
		 */
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop()) {
			__set_current_state(TASK_RUNNING);
			break;
		}
		schedule_timeout(HZ);
	}

	return 0;
}

static int __init heartbeat_init(void)
{
	hb_task = kthread_run(heartbeat_thread, NULL, "heartbeat");
	if (!hb_task) {
		pr_err("heartbeat: failed to start thread\n");
		return -ENOMEM;
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
