// SPDX-License-Identifier: GPL-2.0
/* TADC-100 driver: spinlock-protected snapshot, misc device torn down by a devm action. */
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/of.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/miscdevice.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/fs.h>

enum { REG_CTRL = 0x0, REG_STATUS = 0x4, REG_DATA = 0x8 };
#define CTRL_RUN	(BIT(0) | BIT(1))
#define ST_DONE		BIT(0)

struct tadc_priv {
	void __iomem *regs;
	spinlock_t lock;
	u64 conversions;
	u16 result;
	struct miscdevice mdev;
};

static void tadc_hw(struct tadc_priv *p, u32 ctrl)
{
	iowrite32(ctrl, p->regs + REG_CTRL);
}

static irqreturn_t tadc_thread_fn(int irq, void *cookie)
{
	struct tadc_priv *p = cookie;
	u16 v;

	if (!(ioread32(p->regs + REG_STATUS) & ST_DONE))
		return IRQ_NONE;
	v = ioread32(p->regs + REG_DATA) & 0xffff;

	spin_lock(&p->lock);
	p->result = v;
	p->conversions += 1;
	spin_unlock(&p->lock);

	iowrite32(ST_DONE, p->regs + REG_STATUS);
	return IRQ_HANDLED;
}

static ssize_t tadc_fread(struct file *f, char __user *ubuf, size_t count, loff_t *off)
{
	struct tadc_priv *p = container_of(f->private_data, struct tadc_priv, mdev);
	char text[40];
	u64 n;
	u16 r;
	size_t len;

	spin_lock(&p->lock);
	n = p->conversions;
	r = p->result;
	spin_unlock(&p->lock);

	len = snprintf(text, sizeof(text), "%llu %u\n", n, r);
	if (*off >= len)
		return 0;
	if (count > len - *off)
		count = len - *off;
	if (copy_to_user(ubuf, text + *off, count))
		return -EFAULT;
	*off += count;
	return count;
}

static const struct file_operations tadc_fileops = {
	.owner = THIS_MODULE,
	.read = tadc_fread,
	.llseek = no_llseek,
};

static ssize_t enable_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct tadc_priv *p = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", ioread32(p->regs + REG_CTRL) & BIT(0) ? 1 : 0);
}

static ssize_t enable_store(struct device *dev, struct device_attribute *attr, const char *buf, size_t n)
{
	struct tadc_priv *p = dev_get_drvdata(dev);

	if (sysfs_streq(buf, "1"))
		tadc_hw(p, CTRL_RUN);
	else if (sysfs_streq(buf, "0"))
		tadc_hw(p, 0);
	else
		return -EINVAL;
	return n;
}
static DEVICE_ATTR(enable, 0644, enable_show, enable_store);

static struct attribute *tadc_sysfs_attrs[] = { &dev_attr_enable.attr, NULL };
static const struct attribute_group tadc_sysfs_group = { .attrs = tadc_sysfs_attrs };

static void tadc_misc_gone(void *data)
{
	misc_deregister(data);
}

static int tadc_probe(struct platform_device *pdev)
{
	struct tadc_priv *p;
	int irq, err;

	p = devm_kzalloc(&pdev->dev, sizeof(*p), GFP_KERNEL);
	if (p == NULL)
		return -ENOMEM;
	spin_lock_init(&p->lock);
	platform_set_drvdata(pdev, p);

	p->regs = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(p->regs))
		return PTR_ERR(p->regs);

	irq = platform_get_irq(pdev, 0);
	if (irq < 0)
		return dev_err_probe(&pdev->dev, irq, "no interrupt\n");

	tadc_hw(p, 0);
	iowrite32(ST_DONE, p->regs + REG_STATUS);

	err = devm_request_threaded_irq(&pdev->dev, irq, NULL, tadc_thread_fn,
					IRQF_ONESHOT, "tadc", p);
	if (err)
		return dev_err_probe(&pdev->dev, err, "irq request failed\n");

	err = devm_device_add_group(&pdev->dev, &tadc_sysfs_group);
	if (err)
		return err;

	tadc_hw(p, CTRL_RUN);

	p->mdev.minor = MISC_DYNAMIC_MINOR;
	p->mdev.name = "tadc";
	p->mdev.fops = &tadc_fileops;
	p->mdev.parent = &pdev->dev;
	err = misc_register(&p->mdev);
	if (err) {
		tadc_hw(p, 0);
		return err;
	}
	return devm_add_action_or_reset(&pdev->dev, tadc_misc_gone, &p->mdev);
}

static int tadc_remove(struct platform_device *pdev)
{
	struct tadc_priv *p = platform_get_drvdata(pdev);

	tadc_hw(p, 0);
	iowrite32(ST_DONE, p->regs + REG_STATUS);
	return 0;
}

static const struct of_device_id tadc_ids[] = {
	{ .compatible = "acme,tadc-100", },
	{ /* sentinel */ }
};
MODULE_DEVICE_TABLE(of, tadc_ids);

static struct platform_driver tadc_pdrv = {
	.driver = {
		.name = "acme-tadc",
		.of_match_table = tadc_ids,
	},
	.probe = tadc_probe,
	.remove = tadc_remove,
};

static int __init tadc_init(void)
{
	return platform_driver_register(&tadc_pdrv);
}
module_init(tadc_init);

static void __exit tadc_exit(void)
{
	platform_driver_unregister(&tadc_pdrv);
}
module_exit(tadc_exit);

MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("ACME TADC-100 converter");
