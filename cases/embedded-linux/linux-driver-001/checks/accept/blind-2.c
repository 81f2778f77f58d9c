// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hitcount - a misc device that counts successful opens.
 *
 * open()  : counter += 1
 * read()  : "<counter>\n", honouring the file offset
 * write() : "<decimal>[\n]" sets the counter
 */

#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>

struct hitcount {
	spinlock_t lock;		/* guards value */
	unsigned long long value;
	struct miscdevice mdev;
};

static struct hitcount *hc_state;

static inline struct hitcount *file_to_hc(struct file *filp)
{
	struct miscdevice *m = filp->private_data;

	return container_of(m, struct hitcount, mdev);
}

static unsigned long long hc_get(struct hitcount *hc)
{
	unsigned long long v;

	spin_lock(&hc->lock);
	v = hc->value;
	spin_unlock(&hc->lock);
	return v;
}

static int hc_open(struct inode *inode, struct file *filp)
{
	struct hitcount *hc = file_to_hc(filp);

	spin_lock(&hc->lock);
	hc->value++;
	spin_unlock(&hc->lock);

	return 0;
}

static ssize_t hc_read(struct file *filp, char __user *ubuf, size_t len,
		       loff_t *off)
{
	struct hitcount *hc = file_to_hc(filp);
	char text[32];
	size_t textlen, avail;
	loff_t pos = *off;

	textlen = scnprintf(text, sizeof(text), "%llu\n", hc_get(hc));

	if (pos < 0)
		return -EINVAL;
	if (pos >= (loff_t)textlen || len == 0)
		return 0;

	avail = min_t(size_t, len, textlen - (size_t)pos);
	if (copy_to_user(ubuf, text + pos, avail))
		return -EFAULT;

	*off = pos + avail;
	return avail;
}

static ssize_t hc_write(struct file *filp, const char __user *ubuf,
			size_t len, loff_t *off)
{
	struct hitcount *hc = file_to_hc(filp);
	char text[32];
	unsigned long long v;

	/* Longest valid input: 20 digits plus a newline. */
	if (len == 0 || len >= sizeof(text))
		return -EINVAL;

	if (copy_from_user(text, ubuf, len))
		return -EFAULT;
	text[len] = '\0';

	/* kstrtoull() accepts exactly one optional trailing '\n'. */
	if (kstrtoull(text, 10, &v))
		return -EINVAL;

	spin_lock(&hc->lock);
	hc->value = v;
	spin_unlock(&hc->lock);

	return len;
}

static const struct file_operations hc_fops = {
	.owner		= THIS_MODULE,
	.open		= hc_open,
	.read		= hc_read,
	.write		= hc_write,
	.llseek		= default_llseek,
};

static int __init hc_init(void)
{
	struct hitcount *hc;
	int err;

	hc = kzalloc(sizeof(*hc), GFP_KERNEL);
	if (!hc)
		return -ENOMEM;

	spin_lock_init(&hc->lock);
	hc->mdev.minor = MISC_DYNAMIC_MINOR;
	hc->mdev.name  = "hitcount";
	hc->mdev.fops  = &hc_fops;
	hc->mdev.mode  = 0666;

	/* Publish the state before the device node can be opened. */
	hc_state = hc;

	err = misc_register(&hc->mdev);
	if (err)
		goto err_free;

	return 0;

err_free:
	hc_state = NULL;
	kfree(hc);
	return err;
}

static void __exit hc_exit(void)
{
	misc_deregister(&hc_state->mdev);
	kfree(hc_state);
}

module_init(hc_init);
module_exit(hc_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Open counter exposed through /dev/hitcount");
