// SPDX-License-Identifier: GPL-2.0
/*
 * ACME TADC-100 temperature converter: counts conversions, keeps the last
 * result and shows "<count> <last>\n" through /dev/tadc.
 */
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mod_devicetable.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/sysfs.h>
#include <linux/uaccess.h>

#define TADC_CTRL		0x00
#define TADC_STATUS		0x04
#define TADC_DATA		0x08

#define TADC_CTRL_EN		BIT(0)
#define TADC_CTRL_IRQ_EN	BIT(1)
#define TADC_STATUS_DONE	BIT(0)
#define TADC_DATA_MASK		0xffff

struct tadc {
	void __iomem *base;
	struct miscdevice misc;
	struct mutex lock;	/* count, last, running; CTRL writes */
	u64 count;
	u32 last;
	bool running;
};

static irqreturn_t tadc_irq_thread(int irq, void *data)
{
	struct tadc *t = data;
	u32 status = readl(t->base + TADC_STATUS);

	if (!(status & TADC_STATUS_DONE))
		return IRQ_NONE;

	mutex_lock(&t->lock);
	t->last = readl(t->base + TADC_DATA) & TADC_DATA_MASK;
	t->count++;
	writel(TADC_STATUS_DONE, t->base + TADC_STATUS);
	mutex_unlock(&t->lock);

	return IRQ_HANDLED;
}

static ssize_t tadc_read(struct file *file, char __user *buf, size_t len, loff_t *ppos)
{
	struct tadc *t = container_of(file->private_data, struct tadc, misc);
	char line[32];
	u64 count;
	u32 last;
	int n;

	mutex_lock(&t->lock);
	count = t->count;
	last = t->last;
	mutex_unlock(&t->lock);

	n = scnprintf(line, sizeof(line), "%llu %u\n", count, last);
	return simple_read_from_buffer(buf, len, ppos, line, n);
}

static const struct file_operations tadc_fops = {
	.owner = THIS_MODULE,
	.read = tadc_read,
	.llseek = default_llseek,
};

static void tadc_set_running(struct tadc *t, bool on)
{
	writel(on ? (TADC_CTRL_EN | TADC_CTRL_IRQ_EN) : 0, t->base + TADC_CTRL);
	t->running = on;
}

static ssize_t enable_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct tadc *t = dev_get_drvdata(dev);
	bool on;

	mutex_lock(&t->lock);
	on = t->running;
	mutex_unlock(&t->lock);

	return sysfs_emit(buf, "%d\n", on);
}

static ssize_t enable_store(struct device *dev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	struct tadc *t = dev_get_drvdata(dev);
	unsigned int val;

	if (kstrtouint(buf, 10, &val) || val > 1)
		return -EINVAL;

	mutex_lock(&t->lock);
	tadc_set_running(t, val);
	mutex_unlock(&t->lock);

	return count;
}
static DEVICE_ATTR_RW(enable);

static struct attribute *tadc_attrs[] = {
	&dev_attr_enable.attr,
	NULL,
};
ATTRIBUTE_GROUPS(tadc);

static int tadc_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct tadc *t;
	int irq, ret;

	t = devm_kzalloc(dev, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;

	mutex_init(&t->lock);

	t->base = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(t->base))
		return PTR_ERR(t->base);

	irq = platform_get_irq(pdev, 0);
	if (irq < 0)
		return irq;

	/* Quiet hardware before the handler exists. */
	writel(0, t->base + TADC_CTRL);
	writel(TADC_STATUS_DONE, t->base + TADC_STATUS);

	platform_set_drvdata(pdev, t);

	ret = devm_request_threaded_irq(dev, irq, NULL, tadc_irq_thread, IRQF_ONESHOT,
					dev_name(dev), t);
	if (ret)
		return ret;

	mutex_lock(&t->lock);
	tadc_set_running(t, true);
	mutex_unlock(&t->lock);

	t->misc.minor = MISC_DYNAMIC_MINOR;
	t->misc.name = "tadc";
	t->misc.fops = &tadc_fops;
	t->misc.parent = dev;
	ret = misc_register(&t->misc);
	if (ret) {
		writel(0, t->base + TADC_CTRL);
		return ret;
	}

	return 0;
}

static int tadc_remove(struct platform_device *pdev)
{
	struct tadc *t = platform_get_drvdata(pdev);

	misc_deregister(&t->misc);

	mutex_lock(&t->lock);
	tadc_set_running(t, false);
	mutex_unlock(&t->lock);
	writel(TADC_STATUS_DONE, t->base + TADC_STATUS);
	return 0;
}

static const struct of_device_id tadc_of_match[] = {
	{ .compatible = "acme,tadc-100" },
	{ }
};
MODULE_DEVICE_TABLE(of, tadc_of_match);

static struct platform_driver tadc_driver = {
	.probe = tadc_probe,
	.remove = tadc_remove,
	.driver = {
		.name = "tadc",
		.of_match_table = tadc_of_match,
		.dev_groups = tadc_groups,
	},
};
module_platform_driver(tadc_driver);

MODULE_DESCRIPTION("ACME TADC-100 temperature converter driver");
MODULE_LICENSE("GPL");
