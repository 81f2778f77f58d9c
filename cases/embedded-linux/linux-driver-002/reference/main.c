// SPDX-License-Identifier: GPL-2.0
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>

static struct task_struct *heartbeat_task;

static int heartbeat_thread(void *data)
{
	unsigned long ticks = 0;

	while (!kthread_should_stop()) {
		pr_info("heartbeat: tick %lu\n", ++ticks);
		schedule_timeout_interruptible(HZ);
	}
	return 0;
}

static int __init heartbeat_init(void)
{
	heartbeat_task = kthread_run(heartbeat_thread, NULL, "heartbeat");
	if (IS_ERR(heartbeat_task)) {
		int ret = PTR_ERR(heartbeat_task);

		pr_err("heartbeat: cannot start thread: %d\n", ret);
		return ret;
	}
	return 0;
}

static void __exit heartbeat_exit(void)
{
	kthread_stop(heartbeat_task);
}

module_init(heartbeat_init);
module_exit(heartbeat_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Kernel thread logging a heartbeat once per second");
