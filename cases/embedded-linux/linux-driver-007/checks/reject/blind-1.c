/* defect: the record uses the tick counter before incrementing it, so the first expiry
 * produces 0 instead of 1.
 * breaks: "the first expiry produces 1, the next 2, and so on."
 * must_fail: first_record_is_one
 */
// SPDX-License-Identifier: GPL-2.0
/*
 * tickq - test source for the data-logger acquisition path.
 *
 * A 20 ms kernel timer produces numbered u32 "tick" records into a 64-entry
 * kfifo; user space consumes them from the misc device /dev/tickq.
 *
 * Concurrency model: the timer callback is the only producer, and readers
 * are serialised by a mutex so that at any time there is at most one
 * consumer.  With one producer and one consumer the kfifo needs no further
 * locking, and the consumer may copy straight to user space.
 */
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/kfifo.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#define TICKQ_PERIOD_MS		20
#define TICKQ_FIFO_RECORDS	64
#define TICKQ_RECORD_SIZE	sizeof(u32)

static DEFINE_KFIFO(tickq_fifo, u32, TICKQ_FIFO_RECORDS);
static DECLARE_WAIT_QUEUE_HEAD(tickq_wq);
static DEFINE_MUTEX(tickq_read_lock);
static struct timer_list tickq_timer;
static unsigned long tickq_period;	/* in jiffies */
static u32 tickq_seq;			/* tick number of the next record */

static void tickq_timer_fn(struct timer_list *t)
{
	u32 rec = tickq_seq++;

	/* A full FIFO drops the new record; the tick number still advances. */
	if (kfifo_put(&tickq_fifo, rec))
		wake_up_interruptible(&tickq_wq);

	mod_timer(&tickq_timer, tickq_timer.expires + tickq_period);
}

static ssize_t tickq_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	unsigned int copied = 0;
	unsigned int len;
	int ret;

	if (count < TICKQ_RECORD_SIZE)
		return -EINVAL;

	/* Whole records only; the FIFO never holds more than this anyway. */
	len = min_t(size_t, count, TICKQ_FIFO_RECORDS * TICKQ_RECORD_SIZE);
	len -= len % TICKQ_RECORD_SIZE;

	for (;;) {
		if (mutex_lock_interruptible(&tickq_read_lock))
			return -ERESTARTSYS;
		if (!kfifo_is_empty(&tickq_fifo))
			break;
		mutex_unlock(&tickq_read_lock);

		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(tickq_wq,
					     !kfifo_is_empty(&tickq_fifo)))
			return -ERESTARTSYS;
	}

	ret = kfifo_to_user(&tickq_fifo, buf, len, &copied);
	mutex_unlock(&tickq_read_lock);

	if (copied)
		return copied;
	return ret ? ret : -EFAULT;
}

static __poll_t tickq_poll(struct file *file, poll_table *wait)
{
	poll_wait(file, &tickq_wq, wait);

	if (!kfifo_is_empty(&tickq_fifo))
		return EPOLLIN | EPOLLRDNORM;
	return 0;
}

static const struct file_operations tickq_fops = {
	.owner	= THIS_MODULE,
	.read	= tickq_read,
	.poll	= tickq_poll,
	.llseek	= noop_llseek,
};

static struct miscdevice tickq_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "tickq",
	.fops	= &tickq_fops,
};

static int __init tickq_init(void)
{
	int ret;

	ret = misc_register(&tickq_misc);
	if (ret) {
		pr_err("tickq: misc_register failed: %d\n", ret);
		return ret;
	}

	tickq_period = msecs_to_jiffies(TICKQ_PERIOD_MS);
	timer_setup(&tickq_timer, tickq_timer_fn, 0);
	mod_timer(&tickq_timer, jiffies + tickq_period);

	return 0;
}

static void __exit tickq_exit(void)
{
	/*
	 * Waits for a callback running on another CPU; the self re-arm done
	 * by that callback is removed by the same call.
	 */
	del_timer_sync(&tickq_timer);
	misc_deregister(&tickq_misc);
}

module_init(tickq_init);
module_exit(tickq_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Timer-fed kfifo of numbered tick records on /dev/tickq");
