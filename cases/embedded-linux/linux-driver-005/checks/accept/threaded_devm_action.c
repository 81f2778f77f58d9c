// SPDX-License-Identifier: GPL-2.0
/*
 * Accepted variant: the hard-IRQ half only checks and acknowledges HALF and
 * wakes a thread; the thread, count and reset serialise the SNAP sequence
 * and the total with a mutex (no hard-IRQ code touches them). The device is
 * quiesced by a devm action registered after the IRQ, so it runs before the
 * IRQ is freed; attributes are declared with DEVICE_ATTR and octal modes.
 */
#include <linux/bitops.h>
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>

#define PULSE_CTRL		0x00
#define PULSE_STATUS		0x04
#define PULSE_CMD		0x08
#define PULSE_SNAP		0x0c
#define PULSE_CTRL_RUN		BIT(0)
#define PULSE_CTRL_IRQ_EN	BIT(1)
#define PULSE_STATUS_HALF	BIT(0)
#define PULSE_CMD_SNAP		BIT(0)

struct pulse_priv {
	void __iomem *mmio;
	struct mutex lock;	/* SNAP sequence and sum */
	u64 sum;
};

static void pulse_fold_locked(struct pulse_priv *p)
{
	lockdep_assert_held(&p->lock);
	writel_relaxed(PULSE_CMD_SNAP, p->mmio + PULSE_CMD);
	p->sum += readl(p->mmio + PULSE_SNAP);
}

static irqreturn_t pulse_hardirq(int irq, void *cookie)
{
	struct pulse_priv *p = cookie;
	u32 st = readl(p->mmio + PULSE_STATUS);

	if (st & PULSE_STATUS_HALF) {
		writel(PULSE_STATUS_HALF, p->mmio + PULSE_STATUS);
		return IRQ_WAKE_THREAD;
	}
	return IRQ_NONE;
}

static irqreturn_t pulse_thread(int irq, void *cookie)
{
	struct pulse_priv *p = cookie;

	mutex_lock(&p->lock);
	pulse_fold_locked(p);
	mutex_unlock(&p->lock);
	return IRQ_HANDLED;
}

static ssize_t pulse_count_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct pulse_priv *p = dev_get_drvdata(dev);
	u64 v;

	mutex_lock(&p->lock);
	pulse_fold_locked(p);
	v = p->sum;
	mutex_unlock(&p->lock);
	return sysfs_emit(buf, "%llu\n", v);
}

static ssize_t pulse_reset_store(struct device *dev, struct device_attribute *attr,
				 const char *buf, size_t n)
{
	struct pulse_priv *p = dev_get_drvdata(dev);
	u8 cmd;
	int rc = kstrtou8(buf, 10, &cmd);

	if (rc)
		return rc;
	if (cmd != 1)
		return -EINVAL;

	mutex_lock(&p->lock);
	writel(PULSE_CMD_SNAP, p->mmio + PULSE_CMD);
	p->sum = 0;
	mutex_unlock(&p->lock);
	return n;
}

static DEVICE_ATTR(count, 0444, pulse_count_show, NULL);
static DEVICE_ATTR(reset, 0200, NULL, pulse_reset_store);

static struct attribute *pulse_attrs[] = {
	&dev_attr_count.attr,
	&dev_attr_reset.attr,
	NULL,
};
ATTRIBUTE_GROUPS(pulse);

static void pulse_stop(void *data)
{
	struct pulse_priv *p = data;

	writel(0, p->mmio + PULSE_CTRL);
	writel(PULSE_STATUS_HALF, p->mmio + PULSE_STATUS);
}

static int pulse_probe(struct platform_device *pdev)
{
	struct pulse_priv *p;
	int irq;
	int rc;

	irq = platform_get_irq(pdev, 0);
	if (irq < 0)
		return irq;

	p = devm_kzalloc(&pdev->dev, sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;

	p->mmio = devm_platform_get_and_ioremap_resource(pdev, 0, NULL);
	if (IS_ERR(p->mmio))
		return PTR_ERR(p->mmio);

	mutex_init(&p->lock);
	platform_set_drvdata(pdev, p);
	writel(0, p->mmio + PULSE_CTRL);
	writel(PULSE_STATUS_HALF, p->mmio + PULSE_STATUS);

	rc = devm_request_threaded_irq(&pdev->dev, irq, pulse_hardirq, pulse_thread,
				       IRQF_SHARED, dev_name(&pdev->dev), p);
	if (rc)
		return rc;

	writel(PULSE_CTRL_RUN | PULSE_CTRL_IRQ_EN, p->mmio + PULSE_CTRL);
	return devm_add_action_or_reset(&pdev->dev, pulse_stop, p);
}

static const struct of_device_id pulse_ids[] = {
	{ .compatible = "acme,pulse-counter" },
	{}
};
MODULE_DEVICE_TABLE(of, pulse_ids);

static struct platform_driver pulse_platform_driver = {
	.probe = pulse_probe,
	.driver = {
		.name = "pulsectr",
		.of_match_table = pulse_ids,
		.dev_groups = pulse_groups,
	},
};
module_platform_driver(pulse_platform_driver);

MODULE_DESCRIPTION("Threaded-IRQ driver for the ACME pulse counter");
MODULE_LICENSE("GPL");
