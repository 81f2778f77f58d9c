// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hitcount: every open bumps a 64-bit counter that can be read back as
 * decimal text and overwritten with a decimal number. The counter is an
 * atomic64_t, so no separate lock is needed.
 */
#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/minmax.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/types.h>
#include <linux/uaccess.h>

struct opencount {
	atomic64_t opens;
	struct miscdevice node;
};

static struct opencount *oc_ctx;

static struct opencount *oc_from_file(struct file *filp)
{
	/* misc_open() stores the struct miscdevice in private_data. */
	return container_of(filp->private_data, struct opencount, node);
}

static ssize_t oc_show(struct file *filp, char __user *dst, size_t want, loff_t *where)
{
	struct opencount *ctx = oc_from_file(filp);
	char line[24];
	loff_t at = *where;
	size_t avail;
	int used;

	used = snprintf(line, sizeof(line), "%llu\n",
			(unsigned long long)atomic64_read(&ctx->opens));

	if (at < 0)
		return -EINVAL;
	if (at < used) {
		avail = min_t(size_t, want, used - at);
		if (copy_to_user(dst, line + at, avail) != 0)
			return -EFAULT;
		*where = at + avail;
		return avail;
	}
	return 0;
}

static ssize_t oc_store(struct file *filp, const char __user *src, size_t want, loff_t *where)
{
	struct opencount *ctx = oc_from_file(filp);
	unsigned long long parsed;
	char digits[24];
	int err;

	if (want > 0 && want < sizeof(digits)) {
		if (copy_from_user(digits, src, want) != 0)
			return -EFAULT;
		digits[want] = '\0';

		err = kstrtoull(digits, 10, &parsed);
		if (err == 0) {
			atomic64_set(&ctx->opens, (s64)parsed);
			return want;
		}
		return err;
	}
	return -EINVAL;
}

static int oc_enter(struct inode *ino, struct file *filp)
{
	atomic64_inc(&oc_from_file(filp)->opens);
	return 0;
}

static const struct file_operations oc_ops = {
	.owner = THIS_MODULE,
	.llseek = default_llseek,
	.write = oc_store,
	.read = oc_show,
	.open = oc_enter,
};

static int __init oc_load(void)
{
	struct opencount *ctx;
	int err;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (ctx == NULL)
		return -ENOMEM;

	atomic64_set(&ctx->opens, 0);
	ctx->node.minor = MISC_DYNAMIC_MINOR;
	ctx->node.name = "hitcount";
	ctx->node.fops = &oc_ops;

	err = misc_register(&ctx->node);
	if (err != 0) {
		pr_err("hitcount: cannot register misc device (%d)\n", err);
		kfree(ctx);
		return err;
	}

	oc_ctx = ctx;
	return 0;
}

static void __exit oc_unload(void)
{
	misc_deregister(&oc_ctx->node);
	kfree(oc_ctx);
	oc_ctx = NULL;
}

module_init(oc_load);
module_exit(oc_unload);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("misc device counting its opens");
