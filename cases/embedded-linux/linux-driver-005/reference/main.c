// SPDX-License-Identifier: GPL-2.0
#include <linux/bits.h>
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/types.h>

#define PC_CTRL			0x00
#define PC_CTRL_RUN		BIT(0)
#define PC_CTRL_IRQ_EN		BIT(1)
#define PC_STATUS		0x04
#define PC_STATUS_HALF		BIT(0)
#define PC_CMD			0x08
#define PC_CMD_SNAP		BIT(0)
#define PC_SNAP			0x0c

struct pulsectr {
	void __iomem *base;
	spinlock_t lock;	/* serialises the CMD/SNAP sequence and total */
	u64 total;
};

/* Caller holds pc->lock: two SNAP sequences must never interleave. */
static u32 pulsectr_snap(struct pulsectr *pc)
{
	writel(PC_CMD_SNAP, pc->base + PC_CMD);
	return readl(pc->base + PC_SNAP);
}

static irqreturn_t pulsectr_irq(int irq, void *dev_id)
{
	struct pulsectr *pc = dev_id;
	u32 status;

	status = readl(pc->base + PC_STATUS);
	if (!(status & PC_STATUS_HALF))
		return IRQ_NONE;

	spin_lock(&pc->lock);
	pc->total += pulsectr_snap(pc);
	writel(PC_STATUS_HALF, pc->base + PC_STATUS);
	spin_unlock(&pc->lock);

	return IRQ_HANDLED;
}

static ssize_t count_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct pulsectr *pc = dev_get_drvdata(dev);
	unsigned long flags;
	u64 total;

	spin_lock_irqsave(&pc->lock, flags);
	pc->total += pulsectr_snap(pc);
	total = pc->total;
	spin_unlock_irqrestore(&pc->lock, flags);

	return sysfs_emit(buf, "%llu\n", total);
}
static DEVICE_ATTR_RO(count);

static ssize_t reset_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	struct pulsectr *pc = dev_get_drvdata(dev);
	unsigned long flags;
	unsigned int val;
	int ret;

	ret = kstrtouint(buf, 10, &val);
	if (ret)
		return ret;
	if (val != 1)
		return -EINVAL;

	spin_lock_irqsave(&pc->lock, flags);
	pulsectr_snap(pc);
	pc->total = 0;
	spin_unlock_irqrestore(&pc->lock, flags);

	return count;
}
static DEVICE_ATTR_WO(reset);

static struct attribute *pulsectr_attrs[] = {
	&dev_attr_count.attr,
	&dev_attr_reset.attr,
	NULL,
};
ATTRIBUTE_GROUPS(pulsectr);

static int pulsectr_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct pulsectr *pc;
	int irq, ret;

	pc = devm_kzalloc(dev, sizeof(*pc), GFP_KERNEL);
	if (!pc)
		return -ENOMEM;

	pc->base = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(pc->base))
		return PTR_ERR(pc->base);

	irq = platform_get_irq(pdev, 0);
	if (irq < 0)
		return irq;

	spin_lock_init(&pc->lock);
	platform_set_drvdata(pdev, pc);

	/* Start from a quiet device: not counting, line released, nothing pending. */
	writel(0, pc->base + PC_CTRL);
	writel(PC_STATUS_HALF, pc->base + PC_STATUS);
	pulsectr_snap(pc);

	ret = devm_request_irq(dev, irq, pulsectr_irq, IRQF_SHARED, dev_name(dev), pc);
	if (ret)
		return dev_err_probe(dev, ret, "cannot request IRQ %d\n", irq);

	writel(PC_CTRL_RUN | PC_CTRL_IRQ_EN, pc->base + PC_CTRL);
	return 0;
}

static int pulsectr_remove(struct platform_device *pdev)
{
	struct pulsectr *pc = platform_get_drvdata(pdev);

	/* Stop counting and release the line; devm frees the IRQ and the mapping. */
	writel(0, pc->base + PC_CTRL);
	writel(PC_STATUS_HALF, pc->base + PC_STATUS);
	return 0;
}

static const struct of_device_id pulsectr_of_match[] = {
	{ .compatible = "acme,pulse-counter" },
	{ }
};
MODULE_DEVICE_TABLE(of, pulsectr_of_match);

static struct platform_driver pulsectr_driver = {
	.probe = pulsectr_probe,
	.remove = pulsectr_remove,
	.driver = {
		.name = "acme-pulse-counter",
		.of_match_table = pulsectr_of_match,
		.dev_groups = pulsectr_groups,
	},
};
module_platform_driver(pulsectr_driver);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ACME memory-mapped pulse counter driver");
