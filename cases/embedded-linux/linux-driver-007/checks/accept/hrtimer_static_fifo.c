// SPDX-License-Identifier: GPL-2.0
/* tickq with an hrtimer producer and a statically sized kfifo of u32. */
#include <linux/module.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/kfifo.h>
#include <linux/miscdevice.h>
#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/wait.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>

#define NREC 64

static DECLARE_KFIFO(records, u32, NREC);
static DEFINE_SPINLOCK(out_lock);
static DECLARE_WAIT_QUEUE_HEAD(readers);
static struct hrtimer gen;
static u32 next_no;

static enum hrtimer_restart gen_fire(struct hrtimer *t)
{
	next_no++;
	kfifo_put(&records, next_no);
	wake_up_interruptible_poll(&readers, EPOLLIN | EPOLLRDNORM);
	hrtimer_forward_now(t, ms_to_ktime(20));
	return HRTIMER_RESTART;
}

static ssize_t q_read(struct file *filp, char __user *ubuf, size_t size, loff_t *off)
{
	u32 local[NREC];
	unsigned int got;
	size_t max = size / sizeof(u32);

	if (max == 0)
		return -EINVAL;
	if (max > NREC)
		max = NREC;

	while (1) {
		got = kfifo_out_spinlocked(&records, local, max, &out_lock);
		if (got)
			break;
		if (filp->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(readers, !kfifo_is_empty(&records)))
			return -ERESTARTSYS;
	}

	if (copy_to_user(ubuf, local, got * sizeof(u32)))
		return -EFAULT;
	return got * sizeof(u32);
}

static __poll_t q_poll(struct file *filp, struct poll_table_struct *pt)
{
	__poll_t mask = 0;

	poll_wait(filp, &readers, pt);
	if (!kfifo_is_empty(&records))
		mask |= EPOLLIN | EPOLLRDNORM;
	return mask;
}

static const struct file_operations q_fops = {
	.owner = THIS_MODULE,
	.read = q_read,
	.poll = q_poll,
};

static struct miscdevice q_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "tickq",
	.fops = &q_fops,
	.mode = 0444,
};

static int __init q_init(void)
{
	int err;

	INIT_KFIFO(records);
	err = misc_register(&q_dev);
	if (err)
		return err;

	hrtimer_init(&gen, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	gen.function = gen_fire;
	hrtimer_start(&gen, ms_to_ktime(20), HRTIMER_MODE_REL);
	return 0;
}

static void __exit q_exit(void)
{
	hrtimer_cancel(&gen);
	misc_deregister(&q_dev);
}

module_init(q_init);
module_exit(q_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tickq: hrtimer-fed record FIFO");
