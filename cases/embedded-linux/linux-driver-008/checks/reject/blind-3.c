/* defect: write() sleeps on the room wait queue while still holding dev->lock, so a reader
 * blocks in mutex_lock_interruptible() and can never free room: blocking writer and reader deadlock.
 * breaks: "Never call copy_to_user() or copy_from_user() while holding a spinlock, and never sleep waiting for data or room while holding the lock: the other side must be able to take it meanwhile."
 * must_fail: no_sleep_or_user_copy_under_lock
 */
// SPDX-License-Identifier: GPL-2.0
/*
 * bytepipe: a bounded byte pipe between a capture daemon (writer) and an
 * uploader (reader), exposed as the misc device /dev/bytepipe.
 *
 * Hand-written ring of BP_RING_BYTES bytes.  All ring state is changed
 * only with dev->lock held; the ring indices are committed only after the
 * user copy fully succeeded, so a faulting copy leaves the pipe unchanged.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/wait.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/minmax.h>

enum { BP_RING_BYTES = 4096 };

struct bp_dev {
	struct miscdevice misc;
	struct mutex lock;
	wait_queue_head_t data_wq;	/* readers / pollers waiting for data */
	wait_queue_head_t room_wq;	/* writers / pollers waiting for room */
	u8 *ring;
	size_t head;			/* next write position */
	size_t tail;			/* next read position */
	size_t used;			/* bytes buffered */
};

static struct bp_dev *bp;

static inline struct bp_dev *bp_from_file(struct file *file)
{
	struct miscdevice *m = file->private_data;

	return container_of(m, struct bp_dev, misc);
}

static inline bool bp_has_data(struct bp_dev *d)
{
	return READ_ONCE(d->used) != 0;
}

static inline bool bp_has_room(struct bp_dev *d)
{
	return READ_ONCE(d->used) < BP_RING_BYTES;
}

/* Copy len bytes from the ring tail to user space; lock held. 0 or -EFAULT. */
static int bp_ring_to_user(struct bp_dev *d, char __user *dst, size_t len)
{
	size_t first = min(len, (size_t)BP_RING_BYTES - d->tail);

	if (copy_to_user(dst, d->ring + d->tail, first))
		return -EFAULT;
	if (len > first && copy_to_user(dst + first, d->ring, len - first))
		return -EFAULT;
	return 0;
}

/* Copy len bytes from user space to the ring head; lock held. 0 or -EFAULT. */
static int bp_ring_from_user(struct bp_dev *d, const char __user *src,
			     size_t len)
{
	size_t first = min(len, (size_t)BP_RING_BYTES - d->head);

	if (copy_from_user(d->ring + d->head, src, first))
		return -EFAULT;
	if (len > first && copy_from_user(d->ring, src + first, len - first))
		return -EFAULT;
	return 0;
}

static ssize_t bp_read(struct file *file, char __user *buf, size_t count,
		       loff_t *ppos)
{
	struct bp_dev *d = bp_from_file(file);
	size_t len;
	int err;

	if (!count)
		return 0;

	for (;;) {
		if (mutex_lock_interruptible(&d->lock))
			return -ERESTARTSYS;
		if (d->used)
			break;			/* leave with the lock held */
		mutex_unlock(&d->lock);

		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(d->data_wq, bp_has_data(d)))
			return -ERESTARTSYS;
	}

	len = min(count, d->used);
	err = bp_ring_to_user(d, buf, len);
	if (!err) {
		d->tail = (d->tail + len) & (BP_RING_BYTES - 1);
		WRITE_ONCE(d->used, d->used - len);
	}
	mutex_unlock(&d->lock);

	if (err)
		return err;

	wake_up_interruptible(&d->room_wq);
	return len;
}

static ssize_t bp_write(struct file *file, const char __user *buf,
			size_t count, loff_t *ppos)
{
	struct bp_dev *d = bp_from_file(file);
	size_t len;
	int err;

	if (!count)
		return 0;

	if (mutex_lock_interruptible(&d->lock))
		return -ERESTARTSYS;

	if (d->used == BP_RING_BYTES) {
		if (file->f_flags & O_NONBLOCK) {
			mutex_unlock(&d->lock);
			return -EAGAIN;
		}
		if (wait_event_interruptible(d->room_wq, bp_has_room(d))) {
			mutex_unlock(&d->lock);
			return -ERESTARTSYS;
		}
	}

	len = min(count, (size_t)BP_RING_BYTES - d->used);
	err = bp_ring_from_user(d, buf, len);
	if (!err) {
		d->head = (d->head + len) & (BP_RING_BYTES - 1);
		WRITE_ONCE(d->used, d->used + len);
	}
	mutex_unlock(&d->lock);

	if (err)
		return err;

	wake_up_interruptible(&d->data_wq);
	return len;
}

static __poll_t bp_poll(struct file *file, struct poll_table_struct *pt)
{
	struct bp_dev *d = bp_from_file(file);
	__poll_t events = 0;
	size_t used;

	poll_wait(file, &d->data_wq, pt);
	poll_wait(file, &d->room_wq, pt);

	used = READ_ONCE(d->used);
	if (used > 0)
		events |= EPOLLIN | EPOLLRDNORM;
	if (used < BP_RING_BYTES)
		events |= EPOLLOUT | EPOLLWRNORM;
	return events;
}

static const struct file_operations bp_fops = {
	.owner		= THIS_MODULE,
	.read		= bp_read,
	.write		= bp_write,
	.poll		= bp_poll,
	.llseek		= noop_llseek,
};

static int __init bp_init(void)
{
	struct bp_dev *d;
	int err;

	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;

	d->ring = kmalloc(BP_RING_BYTES, GFP_KERNEL);
	if (!d->ring) {
		err = -ENOMEM;
		goto free_dev;
	}

	mutex_init(&d->lock);
	init_waitqueue_head(&d->data_wq);
	init_waitqueue_head(&d->room_wq);

	d->misc.minor = MISC_DYNAMIC_MINOR;
	d->misc.name = "bytepipe";
	d->misc.fops = &bp_fops;
	d->misc.mode = 0666;

	err = misc_register(&d->misc);
	if (err)
		goto free_ring;

	bp = d;
	pr_info("bytepipe: /dev/bytepipe ready (%d byte ring)\n", BP_RING_BYTES);
	return 0;

free_ring:
	kfree(d->ring);
free_dev:
	kfree(d);
	return err;
}

static void __exit bp_exit(void)
{
	struct bp_dev *d = bp;

	misc_deregister(&d->misc);	/* no new opens, before freeing the ring */
	mutex_destroy(&d->lock);
	kfree(d->ring);
	kfree(d);
	bp = NULL;
}

module_init(bp_init);
module_exit(bp_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("bytepipe: bounded 4096-byte in-kernel pipe as a misc device");
