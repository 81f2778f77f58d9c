// SPDX-License-Identifier: GPL-2.0
/*
 * Accepted variant: register accessors with ioread32/iowrite32, the resource
 * mapped with platform_get_resource + devm_ioremap_resource, the IRQ number
 * kept in the state, an explicit attribute_group, a void .remove_new callback,
 * spin_lock_irq in the store and an open-coded module_init/module_exit.
 */
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>

#define REG_CTRL	0x00
#define REG_STATUS	0x04
#define REG_CMD		0x08
#define REG_SNAP	0x0c

#define CTRL_RUN	0x1
#define CTRL_IRQ_EN	0x2
#define STATUS_HALF	0x1
#define CMD_SNAP	0x1

struct acme_pc {
	struct device *dev;
	void __iomem *regs;
	int irq;
	spinlock_t slock;
	u64 pulses;
};

static inline u32 pc_rd(struct acme_pc *pc, unsigned int reg)
{
	return ioread32(pc->regs + reg);
}

static inline void pc_wr(struct acme_pc *pc, unsigned int reg, u32 val)
{
	iowrite32(val, pc->regs + reg);
}

/* Must be called with pc->slock held. */
static void acme_pc_collect(struct acme_pc *pc)
{
	pc_wr(pc, REG_CMD, CMD_SNAP);
	pc->pulses += pc_rd(pc, REG_SNAP);
}

static irqreturn_t acme_pc_isr(int irq, void *data)
{
	struct acme_pc *pc = data;

	if (!(pc_rd(pc, REG_STATUS) & STATUS_HALF))
		return IRQ_NONE;

	spin_lock(&pc->slock);
	acme_pc_collect(pc);
	spin_unlock(&pc->slock);
	pc_wr(pc, REG_STATUS, STATUS_HALF);

	return IRQ_HANDLED;
}

static ssize_t reset_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t len)
{
	struct acme_pc *pc = dev_get_drvdata(dev);
	unsigned long v;
	int err;

	err = kstrtoul(buf, 0, &v);
	if (err < 0)
		return err;
	if (v != 1)
		return -EINVAL;

	spin_lock_irq(&pc->slock);
	pc_wr(pc, REG_CMD, CMD_SNAP);
	pc->pulses = 0;
	spin_unlock_irq(&pc->slock);
	return len;
}

static ssize_t count_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct acme_pc *pc = dev_get_drvdata(dev);
	unsigned long irqflags;
	u64 snapshot;

	spin_lock_irqsave(&pc->slock, irqflags);
	acme_pc_collect(pc);
	snapshot = pc->pulses;
	spin_unlock_irqrestore(&pc->slock, irqflags);

	return sysfs_emit(buf, "%llu\n", snapshot);
}

static DEVICE_ATTR_WO(reset);
static DEVICE_ATTR_RO(count);

static struct attribute *acme_pc_attributes[] = {
	&dev_attr_count.attr,
	&dev_attr_reset.attr,
	NULL
};

static const struct attribute_group acme_pc_group = {
	.attrs = acme_pc_attributes,
};

static const struct attribute_group *acme_pc_groups[] = {
	&acme_pc_group,
	NULL
};

static int acme_pc_probe(struct platform_device *pdev)
{
	struct acme_pc *pc;
	struct resource *res;
	int err;

	pc = devm_kzalloc(&pdev->dev, sizeof(*pc), GFP_KERNEL);
	if (pc == NULL)
		return -ENOMEM;
	pc->dev = &pdev->dev;
	spin_lock_init(&pc->slock);

	res = platform_get_resource(pdev, IORESOURCE_MEM, 0);
	pc->regs = devm_ioremap_resource(&pdev->dev, res);
	if (IS_ERR(pc->regs))
		return dev_err_probe(&pdev->dev, PTR_ERR(pc->regs), "cannot map registers\n");

	pc->irq = platform_get_irq(pdev, 0);
	if (pc->irq < 0)
		return dev_err_probe(&pdev->dev, pc->irq, "no interrupt\n");

	pc_wr(pc, REG_CTRL, 0);
	pc_wr(pc, REG_STATUS, STATUS_HALF);
	pc_wr(pc, REG_CMD, CMD_SNAP);

	dev_set_drvdata(&pdev->dev, pc);

	err = devm_request_irq(&pdev->dev, pc->irq, acme_pc_isr, IRQF_SHARED,
			       "acme-pulse-counter", pc);
	if (err)
		return err;

	pc_wr(pc, REG_CTRL, CTRL_RUN | CTRL_IRQ_EN);
	dev_info(&pdev->dev, "pulse counter ready (irq %d)\n", pc->irq);
	return 0;
}

static void acme_pc_remove(struct platform_device *pdev)
{
	struct acme_pc *pc = dev_get_drvdata(&pdev->dev);

	pc_wr(pc, REG_CTRL, 0);
	pc_wr(pc, REG_STATUS, STATUS_HALF);
}

static const struct of_device_id acme_pc_dt_ids[] = {
	{ .compatible = "acme,pulse-counter", },
	{ /* sentinel */ }
};
MODULE_DEVICE_TABLE(of, acme_pc_dt_ids);

static struct platform_driver acme_pc_driver = {
	.driver = {
		.name		= "acme_pc",
		.of_match_table	= of_match_ptr(acme_pc_dt_ids),
		.dev_groups	= acme_pc_groups,
	},
	.probe		= acme_pc_probe,
	.remove_new	= acme_pc_remove,
};

static int __init acme_pc_init(void)
{
	return platform_driver_register(&acme_pc_driver);
}

static void __exit acme_pc_exit(void)
{
	platform_driver_unregister(&acme_pc_driver);
}

module_init(acme_pc_init);
module_exit(acme_pc_exit);

MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("ACME pulse counter");
