// SPDX-License-Identifier: GPL-2.0
/*
 * ACME pulse counter driver.
 *
 * Keeps a 64-bit pulse total per counter instance. The 16-bit hardware
 * counter is drained with a SNAP command (copy + clear in one step) from the
 * shared HALF interrupt and whenever user space reads "count".
 */
#include <linux/device.h>
#include <linux/err.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>

#define REG_CTRL	0x00
#define REG_STATUS	0x04
#define REG_CMD		0x08
#define REG_SNAP	0x0c

#define CTRL_RUN	0x1U
#define CTRL_IRQ_EN	0x2U
#define STATUS_HALF	0x1U
#define CMD_SNAP	0x1U

struct pulsectr_dev {
	void __iomem *regs;
	int irq;
	spinlock_t lock;	/* protects total and the SNAP sequence */
	u64 total;
};

/*
 * Issue SNAP and return the pulses that were in the live counter.
 * Must be called with pd->lock held so the CMD write and SNAP read pair
 * cannot interleave with another CPU's.
 */
static u32 pulsectr_snap(struct pulsectr_dev *pd)
{
	writel(CMD_SNAP, pd->regs + REG_CMD);
	return readl(pd->regs + REG_SNAP) & 0xffff;
}

static irqreturn_t pulsectr_isr(int irq, void *data)
{
	struct pulsectr_dev *pd = data;

	if (!(readl(pd->regs + REG_STATUS) & STATUS_HALF))
		return IRQ_NONE;

	spin_lock(&pd->lock);
	pd->total += pulsectr_snap(pd);
	writel(STATUS_HALF, pd->regs + REG_STATUS);
	spin_unlock(&pd->lock);

	return IRQ_HANDLED;
}

static ssize_t pulsectr_count_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct pulsectr_dev *pd = dev_get_drvdata(dev);
	u64 now;

	/* sysfs callbacks run in process context with interrupts enabled. */
	spin_lock_irq(&pd->lock);
	pd->total += pulsectr_snap(pd);
	now = pd->total;
	spin_unlock_irq(&pd->lock);

	return sysfs_emit(buf, "%llu\n", now);
}

static ssize_t pulsectr_reset_store(struct device *dev,
				    struct device_attribute *attr,
				    const char *buf, size_t count)
{
	struct pulsectr_dev *pd = dev_get_drvdata(dev);
	int val, err;

	err = kstrtoint(buf, 10, &val);
	if (err)
		return err;
	if (val != 1)
		return -EINVAL;

	spin_lock_irq(&pd->lock);
	pulsectr_snap(pd);		/* throw away the live pulses */
	pd->total = 0;
	spin_unlock_irq(&pd->lock);

	return count;
}

static struct device_attribute dev_attr_count =
	__ATTR(count, 0444, pulsectr_count_show, NULL);
static struct device_attribute dev_attr_reset =
	__ATTR(reset, 0200, NULL, pulsectr_reset_store);

static struct attribute *pulsectr_attrs[] = {
	&dev_attr_count.attr,
	&dev_attr_reset.attr,
	NULL
};

static const struct attribute_group pulsectr_group = {
	.attrs = pulsectr_attrs,
};

static const struct attribute_group *pulsectr_groups[] = {
	&pulsectr_group,
	NULL
};

static void pulsectr_hw_stop(struct pulsectr_dev *pd)
{
	writel(0, pd->regs + REG_CTRL);			/* RUN = 0, IRQ_EN = 0 */
	writel(STATUS_HALF, pd->regs + REG_STATUS);	/* drop pending HALF */
}

static int pulsectr_probe(struct platform_device *pdev)
{
	struct pulsectr_dev *pd;
	struct resource *res;
	int err;

	pd = devm_kzalloc(&pdev->dev, sizeof(*pd), GFP_KERNEL);
	if (!pd)
		return -ENOMEM;

	res = platform_get_resource(pdev, IORESOURCE_MEM, 0);
	pd->regs = devm_ioremap_resource(&pdev->dev, res);
	if (IS_ERR(pd->regs))
		return PTR_ERR(pd->regs);

	err = platform_get_irq(pdev, 0);
	if (err < 0)
		return err;
	pd->irq = err;

	spin_lock_init(&pd->lock);
	pd->total = 0;
	platform_set_drvdata(pdev, pd);

	/* Quiesce and clear the block before anything can call the handler. */
	pulsectr_hw_stop(pd);
	pulsectr_snap(pd);

	err = request_irq(pd->irq, pulsectr_isr, IRQF_SHARED,
			  dev_name(&pdev->dev), pd);
	if (err) {
		dev_err(&pdev->dev, "failed to request IRQ %d: %d\n",
			pd->irq, err);
		return err;
	}

	writel(CTRL_RUN | CTRL_IRQ_EN, pd->regs + REG_CTRL);
	dev_info(&pdev->dev, "pulse counter running (irq %d)\n", pd->irq);

	return 0;
}

static int pulsectr_remove(struct platform_device *pdev)
{
	struct pulsectr_dev *pd = platform_get_drvdata(pdev);

	/*
	 * Silence the device first so the shared line is not left asserted
	 * without a handler, then release the IRQ. The mapping and pd are
	 * devm-managed and go away after this returns.
	 */
	pulsectr_hw_stop(pd);
	free_irq(pd->irq, pd);

	return 0;
}

static const struct of_device_id pulsectr_dt_ids[] = {
	{ .compatible = "acme,pulse-counter", },
	{ }
};
MODULE_DEVICE_TABLE(of, pulsectr_dt_ids);

static struct platform_driver pulsectr_platform_driver = {
	.driver = {
		.name		= "acme-pulsectr",
		.of_match_table	= pulsectr_dt_ids,
		.dev_groups	= pulsectr_groups,
	},
	.probe	= pulsectr_probe,
	.remove	= pulsectr_remove,
};

static int __init pulsectr_init(void)
{
	return platform_driver_register(&pulsectr_platform_driver);
}
module_init(pulsectr_init);

static void __exit pulsectr_exit(void)
{
	platform_driver_unregister(&pulsectr_platform_driver);
}
module_exit(pulsectr_exit);

MODULE_DESCRIPTION("ACME pulse counter (shared-IRQ MMIO) driver");
MODULE_LICENSE("GPL");
