// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>

struct hc_state {
	spinlock_t lock;
	u64 hits;
	struct miscdevice mdev;
};

static struct hc_state *state;

static int hc_open(struct inode *inode, struct file *filp)
{
	spin_lock(&state->lock);
	state->hits++;
	spin_unlock(&state->lock);
	return 0;
}

static ssize_t hc_read(struct file *filp, char __user *ubuf, size_t len, loff_t *off)
{
	char tmp[32];
	u64 v;
	int n;

	spin_lock(&state->lock);
	v = state->hits;
	spin_unlock(&state->lock);

	n = snprintf(tmp, sizeof(tmp), "%llu\n", v);
	return simple_read_from_buffer(ubuf, len, off, tmp, n);
}

static ssize_t hc_write(struct file *filp, const char __user *ubuf, size_t len, loff_t *off)
{
	u64 v;
	int err;

	err = kstrtou64_from_user(ubuf, len, 10, &v);
	if (err)
		return err;

	spin_lock(&state->lock);
	state->hits = v;
	spin_unlock(&state->lock);
	return len;
}

static const struct file_operations hc_fops = {
	.owner = THIS_MODULE,
	.open = hc_open,
	.read = hc_read,
	.write = hc_write,
	.llseek = default_llseek,
};

static int __init hc_init(void)
{
	int err;

	state = kzalloc(sizeof(*state), GFP_KERNEL);
	if (!state)
		return -ENOMEM;

	spin_lock_init(&state->lock);
	state->mdev.minor = MISC_DYNAMIC_MINOR;
	state->mdev.name = "hitcount";
	state->mdev.fops = &hc_fops;

	err = misc_register(&state->mdev);
	if (err < 0) {
		kfree(state);
		return err;
	}
	return 0;
}

static void __exit hc_exit(void)
{
	misc_deregister(&state->mdev);
	kfree(state);
}

module_init(hc_init);
module_exit(hc_exit);
MODULE_LICENSE("GPL");
