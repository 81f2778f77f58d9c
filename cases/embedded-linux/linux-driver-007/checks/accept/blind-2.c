// SPDX-License-Identifier: GPL-2.0
/*
 * tickq: a 20 ms hrtimer feeds numbered u32 records into a kfifo that user
 * space drains through the misc character device /dev/tickq.
 */
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/kfifo.h>
#include <linux/ktime.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

enum {
	TICKQ_DEPTH = 64,		/* records held by the FIFO */
};

struct tickq {
	DECLARE_KFIFO_PTR(fifo, u32);
	spinlock_t lock;		/* protects fifo and next_tick */
	u32 next_tick;
	wait_queue_head_t readq;
	struct hrtimer timer;
	ktime_t period;
};

static struct tickq tq;

static enum hrtimer_restart tickq_expire(struct hrtimer *timer)
{
	unsigned long flags;
	bool queued;

	hrtimer_forward_now(timer, tq.period);

	spin_lock_irqsave(&tq.lock, flags);
	queued = kfifo_put(&tq.fifo, tq.next_tick);	/* 0 when full: drop */
	tq.next_tick++;
	spin_unlock_irqrestore(&tq.lock, flags);

	if (queued)
		wake_up_interruptible(&tq.readq);

	return HRTIMER_RESTART;
}

static bool tickq_has_data(void)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&tq.lock, flags);
	ret = !kfifo_is_empty(&tq.fifo);
	spin_unlock_irqrestore(&tq.lock, flags);
	return ret;
}

static ssize_t tickq_read(struct file *file, char __user *ubuf, size_t len,
			  loff_t *off)
{
	u32 recs[TICKQ_DEPTH];
	unsigned int want, got;

	if (len < sizeof(u32))
		return -EINVAL;
	want = min_t(size_t, len / sizeof(u32), TICKQ_DEPTH);

	spin_lock_irq(&tq.lock);
	while (kfifo_is_empty(&tq.fifo)) {
		spin_unlock_irq(&tq.lock);

		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(tq.readq, tickq_has_data()))
			return -ERESTARTSYS;

		spin_lock_irq(&tq.lock);
	}
	/* Take the records out under the lock: each goes to one reader only. */
	got = kfifo_out(&tq.fifo, recs, want);
	spin_unlock_irq(&tq.lock);

	if (copy_to_user(ubuf, recs, got * sizeof(u32)))
		return -EFAULT;

	return got * sizeof(u32);
}

static __poll_t tickq_poll(struct file *file, struct poll_table_struct *pt)
{
	poll_wait(file, &tq.readq, pt);

	return tickq_has_data() ? (EPOLLIN | EPOLLRDNORM) : 0;
}

static const struct file_operations tickq_fops = {
	.owner = THIS_MODULE,
	.read = tickq_read,
	.poll = tickq_poll,
	.llseek = noop_llseek,
};

static struct miscdevice tickq_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "tickq",
	.fops = &tickq_fops,
	.mode = 0444,
};

static int __init tickq_init(void)
{
	int err;

	err = kfifo_alloc(&tq.fifo, TICKQ_DEPTH, GFP_KERNEL);
	if (err)
		return err;

	spin_lock_init(&tq.lock);
	init_waitqueue_head(&tq.readq);
	tq.next_tick = 1;
	tq.period = ms_to_ktime(20);
	hrtimer_init(&tq.timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	tq.timer.function = tickq_expire;

	err = misc_register(&tickq_dev);
	if (err) {
		kfifo_free(&tq.fifo);
		return err;
	}

	hrtimer_start(&tq.timer, tq.period, HRTIMER_MODE_REL);
	return 0;
}

static void __exit tickq_exit(void)
{
	/* Cancels a restarting timer and waits for a running callback. */
	hrtimer_cancel(&tq.timer);
	misc_deregister(&tickq_dev);
	kfifo_free(&tq.fifo);
}

module_init(tickq_init);
module_exit(tickq_exit);

MODULE_DESCRIPTION("tickq: 20 ms timer-driven FIFO of tick records (/dev/tickq)");
MODULE_LICENSE("GPL");
