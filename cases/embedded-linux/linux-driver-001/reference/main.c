// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

/* 20 digits for a u64, a newline and the terminating NUL. */
#define HITCOUNT_TEXT_MAX 22

struct hitcount_dev {
	struct miscdevice misc;
	struct mutex lock;
	u64 count;
};

static struct hitcount_dev *hitcount;

static int hitcount_open(struct inode *inode, struct file *file)
{
	struct hitcount_dev *hc = container_of(file->private_data, struct hitcount_dev, misc);

	mutex_lock(&hc->lock);
	hc->count++;
	mutex_unlock(&hc->lock);

	file->private_data = hc;
	return 0;
}

static ssize_t hitcount_read(struct file *file, char __user *buf, size_t count, loff_t *ppos)
{
	struct hitcount_dev *hc = file->private_data;
	char text[HITCOUNT_TEXT_MAX];
	size_t len;

	mutex_lock(&hc->lock);
	len = scnprintf(text, sizeof(text), "%llu\n", hc->count);
	mutex_unlock(&hc->lock);

	if (*ppos >= len)
		return 0;
	if (count > len - *ppos)
		count = len - *ppos;
	if (copy_to_user(buf, text + *ppos, count))
		return -EFAULT;

	*ppos += count;
	return count;
}

static ssize_t hitcount_write(struct file *file, const char __user *buf, size_t count, loff_t *ppos)
{
	struct hitcount_dev *hc = file->private_data;
	char text[HITCOUNT_TEXT_MAX];
	u64 value;
	int ret;

	if (count == 0 || count >= sizeof(text))
		return -EINVAL;
	if (copy_from_user(text, buf, count))
		return -EFAULT;
	text[count] = '\0';

	ret = kstrtou64(text, 10, &value);
	if (ret)
		return ret;

	mutex_lock(&hc->lock);
	hc->count = value;
	mutex_unlock(&hc->lock);

	return count;
}

static const struct file_operations hitcount_fops = {
	.owner = THIS_MODULE,
	.open = hitcount_open,
	.read = hitcount_read,
	.write = hitcount_write,
	.llseek = default_llseek,
};

static int __init hitcount_init(void)
{
	int ret;

	hitcount = kzalloc(sizeof(*hitcount), GFP_KERNEL);
	if (!hitcount)
		return -ENOMEM;

	mutex_init(&hitcount->lock);
	hitcount->misc.minor = MISC_DYNAMIC_MINOR;
	hitcount->misc.name = "hitcount";
	hitcount->misc.fops = &hitcount_fops;

	ret = misc_register(&hitcount->misc);
	if (ret) {
		pr_err("hitcount: misc_register failed: %d\n", ret);
		goto err_free;
	}

	return 0;

err_free:
	mutex_destroy(&hitcount->lock);
	kfree(hitcount);
	return ret;
}

static void __exit hitcount_exit(void)
{
	misc_deregister(&hitcount->misc);
	mutex_destroy(&hitcount->lock);
	kfree(hitcount);
}

module_init(hitcount_init);
module_exit(hitcount_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Open counter exposed as a misc character device");
