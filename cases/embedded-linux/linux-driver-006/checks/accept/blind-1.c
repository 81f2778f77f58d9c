// SPDX-License-Identifier: GPL-2.0
/*
 * tadc - platform driver for the ACME TADC-100 memory-mapped temperature
 * converter.
 *
 * The converter samples once per millisecond and interrupts after every
 * conversion.  The driver counts the conversions, keeps the last result
 * and exposes "<count> <last>\n" through the misc device /dev/tadc.  A
 * sysfs attribute "enable" starts and stops the conversions.
 */
#include <linux/bits.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/types.h>

#define TADC_CTRL		0x00
#define   TADC_CTRL_EN		BIT(0)
#define   TADC_CTRL_IRQ_EN	BIT(1)
#define TADC_STATUS		0x04
#define   TADC_STATUS_DONE	BIT(0)
#define TADC_DATA		0x08
#define   TADC_DATA_MASK	GENMASK(15, 0)

struct tadc {
	void __iomem *base;
	struct miscdevice misc;
	struct mutex ctrl_lock;		/* serialises CTRL writes and @running */
	bool running;
};

/*
 * The board has exactly one converter.  Its statistics live outside the
 * device-managed driver state on purpose: a file descriptor opened on
 * /dev/tadc may still be read after the driver was unbound (and its devm
 * memory released), so read() must only touch this static data.
 */
static DEFINE_SPINLOCK(tadc_stat_lock);
static u64 tadc_count;
static u16 tadc_last;

/* Caller holds ctrl_lock (or has exclusive access during probe/remove). */
static void tadc_hw_run(struct tadc *priv, bool on)
{
	if (on) {
		writel(TADC_CTRL_EN | TADC_CTRL_IRQ_EN, priv->base + TADC_CTRL);
	} else {
		/*
		 * IRQ_EN cleared: the line is released even if DONE is set.
		 * A pending DONE is left for the thread (or the next start) so
		 * that no completed conversion goes uncounted.
		 */
		writel(0, priv->base + TADC_CTRL);
	}
	priv->running = on;
}

static irqreturn_t tadc_irq_thread(int irq, void *dev_id)
{
	struct tadc *priv = dev_id;
	u16 sample;

	if (!(readl(priv->base + TADC_STATUS) & TADC_STATUS_DONE))
		return IRQ_NONE;

	sample = readl(priv->base + TADC_DATA) & TADC_DATA_MASK;

	spin_lock(&tadc_stat_lock);
	tadc_count++;
	tadc_last = sample;
	spin_unlock(&tadc_stat_lock);

	writel(TADC_STATUS_DONE, priv->base + TADC_STATUS);

	return IRQ_HANDLED;
}

static ssize_t tadc_read(struct file *file, char __user *buf, size_t count,
			 loff_t *ppos)
{
	char line[32];
	u64 cnt;
	u16 last;
	int len;

	spin_lock(&tadc_stat_lock);
	cnt = tadc_count;
	last = tadc_last;
	spin_unlock(&tadc_stat_lock);

	len = scnprintf(line, sizeof(line), "%llu %u\n", cnt, last);

	return simple_read_from_buffer(buf, count, ppos, line, len);
}

static const struct file_operations tadc_fops = {
	.owner	= THIS_MODULE,
	.read	= tadc_read,
	.llseek	= default_llseek,
};

static ssize_t enable_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct tadc *priv = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%d\n", READ_ONCE(priv->running) ? 1 : 0);
}

static ssize_t enable_store(struct device *dev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	struct tadc *priv = dev_get_drvdata(dev);
	bool on;

	if (sysfs_streq(buf, "1"))
		on = true;
	else if (sysfs_streq(buf, "0"))
		on = false;
	else
		return -EINVAL;

	mutex_lock(&priv->ctrl_lock);
	tadc_hw_run(priv, on);
	mutex_unlock(&priv->ctrl_lock);

	return count;
}
static DEVICE_ATTR_RW(enable);

static struct attribute *tadc_attrs[] = {
	&dev_attr_enable.attr,
	NULL
};
ATTRIBUTE_GROUPS(tadc);

static int tadc_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct tadc *priv;
	unsigned long flags;
	int irq, ret;

	priv = devm_kzalloc(dev, sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return -ENOMEM;

	priv->base = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(priv->base))
		return PTR_ERR(priv->base);

	irq = platform_get_irq(pdev, 0);
	if (irq < 0)
		return irq;

	mutex_init(&priv->ctrl_lock);
	platform_set_drvdata(pdev, priv);

	/* Known state before the handler goes in: stopped, nothing pending. */
	tadc_hw_run(priv, false);
	writel(TADC_STATUS_DONE, priv->base + TADC_STATUS);

	spin_lock_irqsave(&tadc_stat_lock, flags);
	tadc_count = 0;
	tadc_last = 0;
	spin_unlock_irqrestore(&tadc_stat_lock, flags);

	/* Level-triggered, no primary handler: IRQF_ONESHOT keeps it masked. */
	ret = devm_request_threaded_irq(dev, irq, NULL, tadc_irq_thread,
					IRQF_ONESHOT, dev_name(dev), priv);
	if (ret)
		return dev_err_probe(dev, ret, "cannot request IRQ %d\n", irq);

	tadc_hw_run(priv, true);

	/* Last step: the node appears only once the device works. */
	priv->misc.minor = MISC_DYNAMIC_MINOR;
	priv->misc.name = "tadc";
	priv->misc.fops = &tadc_fops;
	priv->misc.parent = dev;
	ret = misc_register(&priv->misc);
	if (ret) {
		tadc_hw_run(priv, false);
		return dev_err_probe(dev, ret, "cannot register /dev/tadc\n");
	}

	return 0;
}

static int tadc_remove(struct platform_device *pdev)
{
	struct tadc *priv = platform_get_drvdata(pdev);

	misc_deregister(&priv->misc);

	mutex_lock(&priv->ctrl_lock);
	tadc_hw_run(priv, false);
	mutex_unlock(&priv->ctrl_lock);

	/* IRQ, mapping and memory are device-managed and released after this. */
	return 0;
}

static const struct of_device_id tadc_of_match[] = {
	{ .compatible = "acme,tadc-100" },
	{ }
};
MODULE_DEVICE_TABLE(of, tadc_of_match);

static struct platform_driver tadc_driver = {
	.probe	= tadc_probe,
	.remove	= tadc_remove,
	.driver	= {
		.name		= "tadc",
		.of_match_table	= tadc_of_match,
		.dev_groups	= tadc_groups,
	},
};
module_platform_driver(tadc_driver);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ACME TADC-100 temperature converter driver");
