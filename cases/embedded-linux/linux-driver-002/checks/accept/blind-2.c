// SPDX-License-Identifier: GPL-2.0
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/init.h>
#include <linux/kthread.h>
#include <linux/wait.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/printk.h>

static struct task_struct *heartbeat_task;
static DECLARE_WAIT_QUEUE_HEAD(heartbeat_wq);

static int heartbeat_fn(void *unused)
{
	unsigned long next = jiffies + HZ;
	unsigned long n = 1;

	pr_info("tick %lu\n", n);

	for (;;) {
		long remaining;

		/* Keep a fixed 1 s cadence regardless of logging latency. */
		remaining = (long)(next - jiffies);
		if (remaining > 0)
			wait_event_interruptible_timeout(heartbeat_wq,
							 kthread_should_stop(),
							 remaining);

		if (kthread_should_stop())
			break;

		if (time_before(jiffies, next))
			continue;	/* woken early for no reason: sleep the rest */

		n++;
		pr_info("tick %lu\n", n);
		next += HZ;
		if (time_after(jiffies, next))
			next = jiffies + HZ;	/* fell far behind: resync */
	}

	return 0;
}

static int __init heartbeat_init(void)
{
	struct task_struct *t;

	t = kthread_create(heartbeat_fn, NULL, "heartbeat");
	if (IS_ERR(t))
		return PTR_ERR(t);

	heartbeat_task = t;
	wake_up_process(t);
	return 0;
}

static void __exit heartbeat_exit(void)
{
	/* kthread_stop() wakes the thread and waits until it has returned. */
	kthread_stop(heartbeat_task);
	heartbeat_task = NULL;
}

module_init(heartbeat_init);
module_exit(heartbeat_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("heartbeat: kthread logging a tick every second, stopped on unload");
