/* defect: the result of devm_platform_ioremap_resource() is checked against NULL, but it returns an ERR_PTR on failure, so a failed mapping is used as a register base instead of failing the probe.
 * breaks: "If anything fails, the probe fails with an appropriate negative error code and leaves nothing behind."
 * must_fail: probe_resource_errors_checked
 */
// SPDX-License-Identifier: GPL-2.0
/*
 * pulsectr - platform driver for the ACME memory-mapped pulse counter.
 *
 * The hardware keeps a 16-bit live counter. When it reaches 32768 the HALF
 * status bit is raised and (with IRQ_EN) the shared, level-triggered
 * interrupt line is asserted. The driver then moves the live counter into a
 * 64-bit software total with the SNAP command (which copies the live value
 * into SNAP and clears the live counter in one step).
 */
#include <linux/bits.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/types.h>

#define PULSECTR_CTRL		0x00
#define PULSECTR_CTRL_RUN	BIT(0)
#define PULSECTR_CTRL_IRQ_EN	BIT(1)
#define PULSECTR_STATUS		0x04
#define PULSECTR_STATUS_HALF	BIT(0)
#define PULSECTR_CMD		0x08
#define PULSECTR_CMD_SNAP	BIT(0)
#define PULSECTR_SNAP		0x0c
#define PULSECTR_LIVE_MASK	0xffffU

struct pulsectr {
	void __iomem *base;
	/* Serialises the SNAP command/SNAP read sequence and @total. */
	spinlock_t lock;
	u64 total;
	int irq;
};

/* Move the live counter into the total. Caller holds pc->lock. */
static void pulsectr_drain_locked(struct pulsectr *pc)
{
	u32 snap;

	writel(PULSECTR_CMD_SNAP, pc->base + PULSECTR_CMD);
	snap = readl(pc->base + PULSECTR_SNAP) & PULSECTR_LIVE_MASK;
	pc->total += snap;
}

static irqreturn_t pulsectr_irq(int irq, void *dev_id)
{
	struct pulsectr *pc = dev_id;
	u32 status;

	spin_lock(&pc->lock);
	status = readl(pc->base + PULSECTR_STATUS);
	if (!(status & PULSECTR_STATUS_HALF)) {
		/* Shared line: somebody else's interrupt. */
		spin_unlock(&pc->lock);
		return IRQ_NONE;
	}

	pulsectr_drain_locked(pc);
	/* HALF is write-1-to-clear; this deasserts our share of the line. */
	writel(PULSECTR_STATUS_HALF, pc->base + PULSECTR_STATUS);
	spin_unlock(&pc->lock);

	return IRQ_HANDLED;
}

static ssize_t count_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct pulsectr *pc = dev_get_drvdata(dev);
	unsigned long flags;
	u64 total;

	spin_lock_irqsave(&pc->lock, flags);
	pulsectr_drain_locked(pc);
	total = pc->total;
	spin_unlock_irqrestore(&pc->lock, flags);

	return sysfs_emit(buf, "%llu\n", (unsigned long long)total);
}
static DEVICE_ATTR_RO(count);

static ssize_t reset_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t len)
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
	/* Discard whatever is in the live counter, then zero the total. */
	writel(PULSECTR_CMD_SNAP, pc->base + PULSECTR_CMD);
	(void)readl(pc->base + PULSECTR_SNAP);
	pc->total = 0;
	spin_unlock_irqrestore(&pc->lock, flags);

	return len;
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
	int ret;

	pc = devm_kzalloc(dev, sizeof(*pc), GFP_KERNEL);
	if (!pc)
		return -ENOMEM;

	pc->base = devm_platform_ioremap_resource(pdev, 0);
	if (!pc->base)
		return -ENOMEM;

	pc->irq = platform_get_irq(pdev, 0);
	if (pc->irq < 0)
		return pc->irq;

	spin_lock_init(&pc->lock);
	pc->total = 0;
	platform_set_drvdata(pdev, pc);

	/*
	 * Known quiet state before the handler can run: stopped, interrupt
	 * disabled, live counter cleared, HALF acknowledged.
	 */
	writel(0, pc->base + PULSECTR_CTRL);
	writel(PULSECTR_CMD_SNAP, pc->base + PULSECTR_CMD);
	writel(PULSECTR_STATUS_HALF, pc->base + PULSECTR_STATUS);

	ret = devm_request_irq(dev, pc->irq, pulsectr_irq, IRQF_SHARED,
			       dev_name(dev), pc);
	if (ret)
		return dev_err_probe(dev, ret, "cannot request IRQ %d\n",
				     pc->irq);

	/* Only now that the handler is installed may the device interrupt. */
	writel(PULSECTR_CTRL_RUN | PULSECTR_CTRL_IRQ_EN,
	       pc->base + PULSECTR_CTRL);

	return 0;
}

static int pulsectr_remove(struct platform_device *pdev)
{
	struct pulsectr *pc = platform_get_drvdata(pdev);
	unsigned long flags;

	/*
	 * Stop counting and stop asserting the line. The IRQ, the mapping and
	 * the private data are devm-managed and released by the core after
	 * this returns (IRQ first), so nothing is freed here.
	 */
	spin_lock_irqsave(&pc->lock, flags);
	writel(0, pc->base + PULSECTR_CTRL);
	writel(PULSECTR_STATUS_HALF, pc->base + PULSECTR_STATUS);
	spin_unlock_irqrestore(&pc->lock, flags);

	return 0;
}

static const struct of_device_id pulsectr_of_match[] = {
	{ .compatible = "acme,pulse-counter" },
	{ /* sentinel */ }
};
MODULE_DEVICE_TABLE(of, pulsectr_of_match);

static struct platform_driver pulsectr_driver = {
	.probe = pulsectr_probe,
	.remove = pulsectr_remove,
	.driver = {
		.name = "pulsectr",
		.of_match_table = pulsectr_of_match,
		.dev_groups = pulsectr_groups,
	},
};
module_platform_driver(pulsectr_driver);

MODULE_DESCRIPTION("ACME pulse counter platform driver");
MODULE_AUTHOR("ACME");
MODULE_LICENSE("GPL");
