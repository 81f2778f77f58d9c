// SPDX-License-Identifier: GPL-2.0
/*
 * tickq: a 20 ms kernel timer queues numbered u32 records in a kfifo;
 * /dev/tickq hands them to readers (blocking, O_NONBLOCK, poll).
 */
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/kfifo.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/timer.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#define TICKQ_PERIOD_MS		20
#define TICKQ_RECORDS		64

static struct kfifo tickq_fifo;			/* of u32; one producer: the timer */
static DEFINE_MUTEX(tickq_read_lock);		/* serialises the consumers */
static DECLARE_WAIT_QUEUE_HEAD(tickq_wait);
static struct timer_list tickq_timer;
static u32 tickq_seq;

static void tickq_tick(struct timer_list *t)
{
	u32 rec = ++tickq_seq;

	/* Full: the record is dropped, the number still advances. */
	kfifo_in(&tickq_fifo, &rec, sizeof(rec));
	wake_up_interruptible(&tickq_wait);

	mod_timer(&tickq_timer, jiffies + msecs_to_jiffies(TICKQ_PERIOD_MS));
}

static ssize_t tickq_read(struct file *file, char __user *buf, size_t len, loff_t *ppos)
{
	unsigned int copied;
	size_t want;
	int ret;

	if (len < sizeof(u32))
		return -EINVAL;
	want = len - len % sizeof(u32);

	for (;;) {
		if (kfifo_is_empty(&tickq_fifo)) {
			if (file->f_flags & O_NONBLOCK)
				return -EAGAIN;
			ret = wait_event_interruptible(tickq_wait, !kfifo_is_empty(&tickq_fifo));
			if (ret)
				return ret;
		}

		if (mutex_lock_interruptible(&tickq_read_lock))
			return -ERESTARTSYS;
		want = min_t(size_t, want, kfifo_len(&tickq_fifo) / sizeof(u32) * sizeof(u32));
		ret = kfifo_to_user(&tickq_fifo, buf, want, &copied);
		mutex_unlock(&tickq_read_lock);

		if (ret)
			return ret;
		if (copied)
			return copied;
		/* Another reader took the records first: wait again. */
		want = len - len % sizeof(u32);
	}
}

static __poll_t tickq_poll(struct file *file, poll_table *wait)
{
	poll_wait(file, &tickq_wait, wait);
	return kfifo_is_empty(&tickq_fifo) ? 0 : EPOLLIN | EPOLLRDNORM;
}

static const struct file_operations tickq_fops = {
	.owner = THIS_MODULE,
	.read = tickq_read,
	.poll = tickq_poll,
	.llseek = noop_llseek,
};

static struct miscdevice tickq_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "tickq",
	.fops = &tickq_fops,
};

static int __init tickq_init(void)
{
	int ret;

	ret = kfifo_alloc(&tickq_fifo, TICKQ_RECORDS * sizeof(u32), GFP_KERNEL);
	if (ret)
		return ret;

	ret = misc_register(&tickq_misc);
	if (ret) {
		kfifo_free(&tickq_fifo);
		return ret;
	}

	timer_setup(&tickq_timer, tickq_tick, 0);
	mod_timer(&tickq_timer, jiffies + msecs_to_jiffies(TICKQ_PERIOD_MS));
	return 0;
}

static void __exit tickq_exit(void)
{
	del_timer_sync(&tickq_timer);
	misc_deregister(&tickq_misc);
	kfifo_free(&tickq_fifo);
}

module_init(tickq_init);
module_exit(tickq_exit);

MODULE_DESCRIPTION("Timer-fed kfifo character device");
MODULE_LICENSE("GPL");
