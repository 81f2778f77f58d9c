/* defect: unload only clears a flag and wakes the thread without waiting for it to exit (no kthread_stop), so the thread can still be executing module code after the module is freed.
 * breaks: "On unload the thread must be gone before the module's code is freed, and `rmmod` must return within about one second."
 * must_fail: exit_stops_thread
 */
// SPDX-License-Identifier: GPL-2.0
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/init.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/printk.h>

static struct task_struct *heartbeat_task;
static bool heartbeat_running;

static int heartbeat_fn(void *unused)
{
	unsigned int n = 0;

	while (READ_ONCE(heartbeat_running)) {
		pr_info("tick %u\n", ++n);
		schedule_timeout_interruptible(HZ);
	}

	return 0;
}

static int __init heartbeat_init(void)
{
	struct task_struct *t;

	WRITE_ONCE(heartbeat_running, true);
	t = kthread_run(heartbeat_fn, NULL, "heartbeat");
	if (IS_ERR(t)) {
		WRITE_ONCE(heartbeat_running, false);
		return PTR_ERR(t);
	}

	heartbeat_task = t;
	return 0;
}

static void __exit heartbeat_exit(void)
{
	WRITE_ONCE(heartbeat_running, false);
	wake_up_process(heartbeat_task);
	heartbeat_task = NULL;
}

module_init(heartbeat_init);
module_exit(heartbeat_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("heartbeat: kthread logging a tick every second");
