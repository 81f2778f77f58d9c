// SPDX-License-Identifier: GPL-2.0
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>

static struct task_struct *hb;

static int hb_fn(void *arg)
{
	unsigned int n = 0;

	for (;;) {
		if (kthread_should_stop())
			break;
		n++;
		pr_info("heartbeat: tick %u\n", n);
		msleep_interruptible(1000);
	}
	return 0;
}

static int __init hb_init(void)
{
	struct task_struct *t;

	t = kthread_create(hb_fn, NULL, "heartbeat");
	if (IS_ERR(t))
		return PTR_ERR(t);
	hb = t;
	wake_up_process(hb);
	return 0;
}

static void __exit hb_exit(void)
{
	if (hb)
		kthread_stop(hb);
}

module_init(hb_init);
module_exit(hb_exit);
MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("heartbeat thread");
