/* defect: when misc_register() fails, init returns the error without freeing the kzalloc'd driver state, leaking it.
 * breaks: "Loading must either fully succeed or leave nothing behind; unloading must release everything that loading set up."
 * must_fail: init_failures_unwound
 */
// SPDX-License-Identifier: GPL-2.0
/*
 * hitcount: misc character device /dev/hitcount exposing an open counter.
 */

#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#define HITCOUNT_NAME "hitcount"

struct hitcount_dev {
	struct miscdevice misc;
	struct mutex lock;	/* protects count */
	u64 count;
};

static struct hitcount_dev *hitcount;

static struct hitcount_dev *to_hitcount(struct file *file)
{
	/* misc_open() stores the struct miscdevice in private_data. */
	return container_of(file->private_data, struct hitcount_dev, misc);
}

static int hitcount_open(struct inode *inode, struct file *file)
{
	struct hitcount_dev *hc = to_hitcount(file);

	mutex_lock(&hc->lock);
	hc->count++;
	mutex_unlock(&hc->lock);

	return 0;
}

static ssize_t hitcount_read(struct file *file, char __user *buf,
			     size_t count, loff_t *ppos)
{
	struct hitcount_dev *hc = to_hitcount(file);
	char kbuf[24];
	u64 value;
	int len;

	mutex_lock(&hc->lock);
	value = hc->count;
	mutex_unlock(&hc->lock);

	len = scnprintf(kbuf, sizeof(kbuf), "%llu\n", value);

	return simple_read_from_buffer(buf, count, ppos, kbuf, len);
}

static ssize_t hitcount_write(struct file *file, const char __user *buf,
			      size_t count, loff_t *ppos)
{
	struct hitcount_dev *hc = to_hitcount(file);
	u64 value;
	int ret;

	/* Handles an optional trailing newline; -EFAULT on bad pointers. */
	ret = kstrtou64_from_user(buf, count, 10, &value);
	if (ret == -EFAULT)
		return -EFAULT;
	if (ret)
		return -EINVAL;

	mutex_lock(&hc->lock);
	hc->count = value;
	mutex_unlock(&hc->lock);

	return count;
}

static const struct file_operations hitcount_fops = {
	.owner	= THIS_MODULE,
	.open	= hitcount_open,
	.read	= hitcount_read,
	.write	= hitcount_write,
	.llseek	= default_llseek,
};

static int __init hitcount_init(void)
{
	struct hitcount_dev *hc;
	int ret;

	hc = kzalloc(sizeof(*hc), GFP_KERNEL);
	if (!hc)
		return -ENOMEM;

	mutex_init(&hc->lock);
	hc->misc.minor = MISC_DYNAMIC_MINOR;
	hc->misc.name = HITCOUNT_NAME;
	hc->misc.fops = &hitcount_fops;
	hc->misc.mode = 0666;

	ret = misc_register(&hc->misc);
	if (ret) {
		pr_err(HITCOUNT_NAME ": misc_register failed: %d\n", ret);
		return ret;
	}

	hitcount = hc;
	pr_info(HITCOUNT_NAME ": registered /dev/%s\n", HITCOUNT_NAME);
	return 0;
}

static void __exit hitcount_exit(void)
{
	misc_deregister(&hitcount->misc);
	mutex_destroy(&hitcount->lock);
	kfree(hitcount);
	hitcount = NULL;
}

module_init(hitcount_init);
module_exit(hitcount_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("misc device /dev/hitcount counting opens");
MODULE_AUTHOR("hitcount example");
