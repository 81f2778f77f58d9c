// SPDX-License-Identifier: GPL-2.0
/*
 * bytepipe: a bounded in-kernel pipe. Writers store bytes into a 4096-byte
 * ring, readers take them out; both sides block (or -EAGAIN) and poll.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#define BP_SIZE		4096

struct bp_ring {
	char *data;
	size_t head;		/* next byte to read */
	size_t count;		/* bytes buffered */
	struct mutex lock;
	wait_queue_head_t readq;	/* readers: data arrived */
	wait_queue_head_t writeq;	/* writers: room appeared */
};

static struct bp_ring bp;

static size_t bp_used(void)
{
	return READ_ONCE(bp.count);
}

static ssize_t bp_read(struct file *file, char __user *buf, size_t len, loff_t *ppos)
{
	size_t n, first;
	ssize_t ret;

	if (len == 0)
		return 0;

	if (mutex_lock_interruptible(&bp.lock))
		return -ERESTARTSYS;
	while (bp.count == 0) {
		mutex_unlock(&bp.lock);
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(bp.readq, bp_used() > 0))
			return -ERESTARTSYS;
		if (mutex_lock_interruptible(&bp.lock))
			return -ERESTARTSYS;
	}

	n = min(len, bp.count);
	first = min(n, BP_SIZE - bp.head);
	if (copy_to_user(buf, bp.data + bp.head, first) ||
	    copy_to_user(buf + first, bp.data, n - first)) {
		ret = -EFAULT;		/* nothing consumed */
		goto out;
	}
	bp.head = (bp.head + n) % BP_SIZE;
	bp.count -= n;
	ret = n;
out:
	mutex_unlock(&bp.lock);
	if (ret > 0)
		wake_up_interruptible(&bp.writeq);
	return ret;
}

static ssize_t bp_write(struct file *file, const char __user *buf, size_t len, loff_t *ppos)
{
	size_t n, tail, first;
	ssize_t ret;

	if (len == 0)
		return 0;

	if (mutex_lock_interruptible(&bp.lock))
		return -ERESTARTSYS;
	while (bp.count == BP_SIZE) {
		mutex_unlock(&bp.lock);
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(bp.writeq, bp_used() < BP_SIZE))
			return -ERESTARTSYS;
		if (mutex_lock_interruptible(&bp.lock))
			return -ERESTARTSYS;
	}

	n = min(len, BP_SIZE - bp.count);
	tail = (bp.head + bp.count) % BP_SIZE;
	first = min(n, BP_SIZE - tail);
	if (copy_from_user(bp.data + tail, buf, first) ||
	    copy_from_user(bp.data, buf + first, n - first)) {
		ret = -EFAULT;		/* count unchanged: nothing added */
		goto out;
	}
	bp.count += n;
	ret = n;
out:
	mutex_unlock(&bp.lock);
	if (ret > 0)
		wake_up_interruptible(&bp.readq);
	return ret;
}

static __poll_t bp_poll(struct file *file, poll_table *wait)
{
	__poll_t mask = 0;
	size_t used;

	poll_wait(file, &bp.readq, wait);
	poll_wait(file, &bp.writeq, wait);

	used = bp_used();
	if (used > 0)
		mask |= EPOLLIN | EPOLLRDNORM;
	if (used < BP_SIZE)
		mask |= EPOLLOUT | EPOLLWRNORM;
	return mask;
}

static const struct file_operations bp_fops = {
	.owner = THIS_MODULE,
	.read = bp_read,
	.write = bp_write,
	.poll = bp_poll,
	.llseek = noop_llseek,
};

static struct miscdevice bp_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "bytepipe",
	.fops = &bp_fops,
};

static int __init bp_init(void)
{
	int ret;

	bp.data = kmalloc(BP_SIZE, GFP_KERNEL);
	if (!bp.data)
		return -ENOMEM;
	bp.head = 0;
	bp.count = 0;
	mutex_init(&bp.lock);
	init_waitqueue_head(&bp.readq);
	init_waitqueue_head(&bp.writeq);

	ret = misc_register(&bp_misc);
	if (ret) {
		kfree(bp.data);
		return ret;
	}
	return 0;
}

static void __exit bp_exit(void)
{
	misc_deregister(&bp_misc);
	kfree(bp.data);
}

module_init(bp_init);
module_exit(bp_exit);

MODULE_DESCRIPTION("Bounded byte pipe over a 4 KiB ring buffer");
MODULE_LICENSE("GPL");
