// SPDX-License-Identifier: GPL-2.0
/*
 * bytepipe, kfifo flavour: the ring is a kfifo inside a heap-allocated device
 * struct. User copies go through a bounce buffer so that a fault never moves
 * the fifo: read peeks, copies out, then discards; write copies in, then
 * queues. One wait queue serves readers, writers and pollers.
 */
#include <linux/fs.h>
#include <linux/kfifo.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#define PIPE_BYTES 4096

struct pipe_dev {
	struct miscdevice misc;
	struct mutex lock;		/* fifo and xfer */
	wait_queue_head_t wq;		/* data arrived or room appeared */
	DECLARE_KFIFO_PTR(fifo, u8);
	u8 xfer[PIPE_BYTES];
};

static struct pipe_dev *pipe;

static struct pipe_dev *to_pipe(struct file *f)
{
	return container_of(f->private_data, struct pipe_dev, misc);
}

/*
 * Take the lock once @want holds (data for a reader, room for a writer).
 * Returns 0 with the lock held, or a negative errno without it.
 */
static int pipe_lock_when(struct pipe_dev *d, struct file *f, bool data)
{
	for (;;) {
		mutex_lock(&d->lock);
		if (data ? !kfifo_is_empty(&d->fifo) : !kfifo_is_full(&d->fifo))
			return 0;
		mutex_unlock(&d->lock);

		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (data) {
			if (wait_event_interruptible(d->wq, !kfifo_is_empty(&d->fifo)))
				return -ERESTARTSYS;
		} else {
			if (wait_event_interruptible(d->wq, !kfifo_is_full(&d->fifo)))
				return -ERESTARTSYS;
		}
	}
}

static ssize_t pipe_read(struct file *f, char __user *ubuf, size_t count, loff_t *off)
{
	struct pipe_dev *d = to_pipe(f);
	unsigned int n;
	int err;

	if (!count)
		return 0;
	err = pipe_lock_when(d, f, true);
	if (err)
		return err;

	n = kfifo_out_peek(&d->fifo, d->xfer, min_t(size_t, count, PIPE_BYTES));
	if (copy_to_user(ubuf, d->xfer, n)) {
		mutex_unlock(&d->lock);
		return -EFAULT;
	}
	n = kfifo_out(&d->fifo, d->xfer, n);	/* now drop what was delivered */
	mutex_unlock(&d->lock);

	wake_up_interruptible(&d->wq);
	return n;
}

static ssize_t pipe_write(struct file *f, const char __user *ubuf, size_t count, loff_t *off)
{
	struct pipe_dev *d = to_pipe(f);
	unsigned int n;
	int err;

	if (!count)
		return 0;
	err = pipe_lock_when(d, f, false);
	if (err)
		return err;

	n = min_t(size_t, count, kfifo_avail(&d->fifo));
	if (copy_from_user(d->xfer, ubuf, n)) {
		mutex_unlock(&d->lock);
		return -EFAULT;
	}
	n = kfifo_in(&d->fifo, d->xfer, n);
	mutex_unlock(&d->lock);

	wake_up_interruptible(&d->wq);
	return n;
}

static __poll_t pipe_poll(struct file *f, poll_table *pt)
{
	struct pipe_dev *d = to_pipe(f);
	__poll_t events = 0;

	poll_wait(f, &d->wq, pt);
	mutex_lock(&d->lock);
	if (!kfifo_is_empty(&d->fifo))
		events |= EPOLLIN | EPOLLRDNORM;
	if (!kfifo_is_full(&d->fifo))
		events |= EPOLLOUT | EPOLLWRNORM;
	mutex_unlock(&d->lock);
	return events;
}

static const struct file_operations pipe_fops = {
	.owner = THIS_MODULE,
	.read = pipe_read,
	.write = pipe_write,
	.poll = pipe_poll,
	.llseek = noop_llseek,
};

static int __init pipe_init(void)
{
	struct pipe_dev *d;
	int err;

	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;

	err = kfifo_alloc(&d->fifo, PIPE_BYTES, GFP_KERNEL);
	if (err)
		goto free_dev;

	mutex_init(&d->lock);
	init_waitqueue_head(&d->wq);
	d->misc.minor = MISC_DYNAMIC_MINOR;
	d->misc.name = "bytepipe";
	d->misc.fops = &pipe_fops;

	err = misc_register(&d->misc);
	if (err)
		goto free_fifo;

	pipe = d;
	return 0;

free_fifo:
	kfifo_free(&d->fifo);
free_dev:
	kfree(d);
	return err;
}

static void __exit pipe_exit(void)
{
	misc_deregister(&pipe->misc);
	kfifo_free(&pipe->fifo);
	kfree(pipe);
}

module_init(pipe_init);
module_exit(pipe_exit);

MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("bytepipe: bounded byte pipe on a kfifo");
