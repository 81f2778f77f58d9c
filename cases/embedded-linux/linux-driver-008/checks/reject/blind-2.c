/* defect: poll() only registers on the "data arrived" wait queue; read() wakes the writer queue,
 * so a poller waiting for EPOLLOUT on a full pipe is never woken when room appears.
 * breaks: "and a poller must be woken both when data arrives and when room appears."
 * must_fail: poll_reports_both_directions
 */
// SPDX-License-Identifier: GPL-2.0
/*
 * bytepipe - bounded in-kernel byte pipe exposed as /dev/bytepipe.
 *
 * Writers block while the 4 KiB ring is full, readers block while it is
 * empty.  The ring is a kfifo protected by a mutex; user copies go through
 * a bounce buffer so that a faulting copy never changes the fifo.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/kfifo.h>
#include <linux/mutex.h>
#include <linux/wait.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#define BYTEPIPE_SIZE	4096

static DECLARE_KFIFO_PTR(bp_fifo, unsigned char);
static unsigned char *bp_bounce;	/* BYTEPIPE_SIZE bytes, used under bp_lock */
static DEFINE_MUTEX(bp_lock);
static DECLARE_WAIT_QUEUE_HEAD(bp_readq);	/* waiting for data */
static DECLARE_WAIT_QUEUE_HEAD(bp_writeq);	/* waiting for room */

static ssize_t bytepipe_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	unsigned int n, got;

	if (count == 0)
		return 0;

	if (mutex_lock_interruptible(&bp_lock))
		return -ERESTARTSYS;

	while (kfifo_is_empty(&bp_fifo)) {
		mutex_unlock(&bp_lock);
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(bp_readq,
					     !kfifo_is_empty(&bp_fifo)))
			return -ERESTARTSYS;
		if (mutex_lock_interruptible(&bp_lock))
			return -ERESTARTSYS;
	}

	n = min_t(size_t, count, kfifo_len(&bp_fifo));
	got = kfifo_out_peek(&bp_fifo, bp_bounce, n);
	if (copy_to_user(ubuf, bp_bounce, got)) {
		mutex_unlock(&bp_lock);
		return -EFAULT;
	}
	/* The copy succeeded: now actually consume those bytes. */
	got = kfifo_out(&bp_fifo, bp_bounce, got);
	mutex_unlock(&bp_lock);

	wake_up_interruptible(&bp_writeq);
	return got;
}

static ssize_t bytepipe_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	unsigned int n, put;

	if (count == 0)
		return 0;

	if (mutex_lock_interruptible(&bp_lock))
		return -ERESTARTSYS;

	while (kfifo_is_full(&bp_fifo)) {
		mutex_unlock(&bp_lock);
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(bp_writeq,
					     !kfifo_is_full(&bp_fifo)))
			return -ERESTARTSYS;
		if (mutex_lock_interruptible(&bp_lock))
			return -ERESTARTSYS;
	}

	n = min_t(size_t, count, kfifo_avail(&bp_fifo));
	if (copy_from_user(bp_bounce, ubuf, n)) {
		mutex_unlock(&bp_lock);
		return -EFAULT;
	}
	put = kfifo_in(&bp_fifo, bp_bounce, n);
	mutex_unlock(&bp_lock);

	wake_up_interruptible(&bp_readq);
	return put;
}

static __poll_t bytepipe_poll(struct file *file, poll_table *wait)
{
	__poll_t mask = 0;

	poll_wait(file, &bp_readq, wait);

	mutex_lock(&bp_lock);
	if (!kfifo_is_empty(&bp_fifo))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (!kfifo_is_full(&bp_fifo))
		mask |= EPOLLOUT | EPOLLWRNORM;
	mutex_unlock(&bp_lock);

	return mask;
}

static const struct file_operations bytepipe_fops = {
	.owner	= THIS_MODULE,
	.open	= nonseekable_open,
	.read	= bytepipe_read,
	.write	= bytepipe_write,
	.poll	= bytepipe_poll,
	.llseek	= no_llseek,
};

static struct miscdevice bytepipe_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "bytepipe",
	.fops	= &bytepipe_fops,
	.mode	= 0666,
};

static int __init bytepipe_init(void)
{
	int ret;

	ret = kfifo_alloc(&bp_fifo, BYTEPIPE_SIZE, GFP_KERNEL);
	if (ret)
		return ret;

	bp_bounce = kmalloc(BYTEPIPE_SIZE, GFP_KERNEL);
	if (!bp_bounce) {
		ret = -ENOMEM;
		goto err_fifo;
	}

	ret = misc_register(&bytepipe_misc);
	if (ret)
		goto err_bounce;

	return 0;

err_bounce:
	kfree(bp_bounce);
	bp_bounce = NULL;
err_fifo:
	kfifo_free(&bp_fifo);
	return ret;
}

static void __exit bytepipe_exit(void)
{
	misc_deregister(&bytepipe_misc);
	kfree(bp_bounce);
	bp_bounce = NULL;
	kfifo_free(&bp_fifo);
}

module_init(bytepipe_init);
module_exit(bytepipe_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Bounded 4 KiB byte pipe misc device (/dev/bytepipe)");
