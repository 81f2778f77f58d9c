/* defect: /dev/tadc is registered right after the counters are set up, before the interrupt
 * handler is installed and the converter is started.
 * breaks: "`/dev/tadc` must appear only once the device is fully working: registers mapped, interrupt handler installed and converter started."
 * must_fail: misc_registered_when_ready
 */
// SPDX-License-Identifier: GPL-2.0
/*
 * ACME TADC-100 temperature converter: platform driver exposing the number
 * of conversions and the last result through /dev/tadc, plus an "enable"
 * switch in sysfs.
 *
 * Everything acquired in probe is device-managed; teardown is the devres
 * unwind (converter stop, IRQ, misc device, counters, mapping, memory).
 */
#include <linux/bitfield.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/kref.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

/* Register map */
#define REG_CTRL	0x00
#define REG_STATUS	0x04
#define REG_DATA	0x08

#define CTRL_EN		BIT(0)	/* convert once per millisecond */
#define CTRL_IRQ_EN	BIT(1)	/* drive the IRQ line while DONE is set */
#define STATUS_DONE	BIT(0)	/* write 1 to clear */
#define DATA_RESULT	GENMASK(15, 0)

/*
 * Conversion statistics.  Reference counted because an open /dev/tadc can
 * outlive the binding of the device.
 */
struct tadc_stats {
	struct kref kref;
	seqlock_t seq;
	u64 count;
	u16 last;
};

struct tadc_dev {
	void __iomem *regs;
	struct tadc_stats *stats;
	struct mutex ctrl_mutex;	/* CTRL read-modify-write from sysfs */
	struct miscdevice misc;
};

static void tadc_stats_release(struct kref *kref)
{
	kfree(container_of(kref, struct tadc_stats, kref));
}

static void tadc_stats_put(void *p)
{
	struct tadc_stats *st = p;

	kref_put(&st->kref, tadc_stats_release);
}

static irqreturn_t tadc_thread_fn(int irq, void *arg)
{
	struct tadc_dev *td = arg;
	struct tadc_stats *st = td->stats;
	u32 result;

	if (!(readl(td->regs + REG_STATUS) & STATUS_DONE))
		return IRQ_NONE;

	result = FIELD_GET(DATA_RESULT, readl(td->regs + REG_DATA));

	write_seqlock(&st->seq);
	st->count++;
	st->last = result;
	write_sequnlock(&st->seq);

	writel(STATUS_DONE, td->regs + REG_STATUS);
	return IRQ_HANDLED;
}

static int tadc_open(struct inode *inode, struct file *file)
{
	/* misc_open() stored our miscdevice; the device is bound right now. */
	struct tadc_dev *td = container_of(file->private_data,
					   struct tadc_dev, misc);

	kref_get(&td->stats->kref);
	file->private_data = td->stats;
	return 0;
}

static int tadc_release(struct inode *inode, struct file *file)
{
	tadc_stats_put(file->private_data);
	return 0;
}

static ssize_t tadc_read(struct file *file, char __user *ubuf, size_t len,
			 loff_t *off)
{
	struct tadc_stats *st = file->private_data;
	char text[32];
	unsigned int seq;
	size_t n, avail;
	u64 count;
	u16 last;
	loff_t pos = *off;

	do {
		seq = read_seqbegin(&st->seq);
		count = st->count;
		last = st->last;
	} while (read_seqretry(&st->seq, seq));

	avail = snprintf(text, sizeof(text), "%llu %u\n", count, last);

	if (pos < 0)
		return -EINVAL;
	if (pos >= avail)
		return 0;

	n = min_t(size_t, len, avail - pos);
	if (copy_to_user(ubuf, text + pos, n))
		return -EFAULT;

	*off = pos + n;
	return n;
}

static const struct file_operations tadc_fops = {
	.owner = THIS_MODULE,
	.open = tadc_open,
	.release = tadc_release,
	.read = tadc_read,
	.llseek = default_llseek,
};

static ssize_t enable_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct tadc_dev *td = dev_get_drvdata(dev);
	u32 ctrl;

	mutex_lock(&td->ctrl_mutex);
	ctrl = readl(td->regs + REG_CTRL);
	mutex_unlock(&td->ctrl_mutex);

	return sysfs_emit(buf, "%u\n", (ctrl & CTRL_EN) ? 1 : 0);
}

static ssize_t enable_store(struct device *dev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	struct tadc_dev *td = dev_get_drvdata(dev);
	u32 ctrl;

	/* Exactly "0" or "1", optionally followed by one newline. */
	if (count < 1 || count > 2 || (count == 2 && buf[1] != '\n'))
		return -EINVAL;

	switch (buf[0]) {
	case '1':
		ctrl = CTRL_EN | CTRL_IRQ_EN;
		break;
	case '0':
		ctrl = 0;
		break;
	default:
		return -EINVAL;
	}

	mutex_lock(&td->ctrl_mutex);
	writel(ctrl, td->regs + REG_CTRL);
	mutex_unlock(&td->ctrl_mutex);

	return count;
}
static DEVICE_ATTR_RW(enable);

static struct attribute *tadc_dev_attrs[] = {
	&dev_attr_enable.attr,
	NULL,
};

static const struct attribute_group tadc_dev_group = {
	.attrs = tadc_dev_attrs,
};

static const struct attribute_group *tadc_dev_groups[] = {
	&tadc_dev_group,
	NULL,
};

static void tadc_stop(void *arg)
{
	struct tadc_dev *td = arg;

	/* Stop converting and release the interrupt line. */
	writel(0, td->regs + REG_CTRL);
	writel(STATUS_DONE, td->regs + REG_STATUS);
}

static void tadc_misc_deregister(void *arg)
{
	misc_deregister(arg);
}

static int tadc_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct tadc_dev *td;
	int irq;
	int err;

	td = devm_kzalloc(dev, sizeof(*td), GFP_KERNEL);
	if (!td)
		return -ENOMEM;
	mutex_init(&td->ctrl_mutex);

	td->regs = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(td->regs))
		return PTR_ERR(td->regs);

	irq = platform_get_irq(pdev, 0);
	if (irq < 0)
		return irq;

	td->stats = kzalloc(sizeof(*td->stats), GFP_KERNEL);
	if (!td->stats)
		return -ENOMEM;
	kref_init(&td->stats->kref);
	seqlock_init(&td->stats->seq);
	err = devm_add_action_or_reset(dev, tadc_stats_put, td->stats);
	if (err)
		return err;

	platform_set_drvdata(pdev, td);

	td->misc.minor = MISC_DYNAMIC_MINOR;
	td->misc.name = "tadc";
	td->misc.fops = &tadc_fops;
	td->misc.parent = dev;
	err = misc_register(&td->misc);
	if (err)
		return dev_err_probe(dev, err, "misc_register failed\n");
	err = devm_add_action_or_reset(dev, tadc_misc_deregister, &td->misc);
	if (err)
		return err;

	/* Quiet hardware before the handler is installed. */
	tadc_stop(td);

	err = devm_request_threaded_irq(dev, irq, NULL, tadc_thread_fn,
					IRQF_ONESHOT, "tadc", td);
	if (err)
		return dev_err_probe(dev, err, "request IRQ %d failed\n", irq);

	writel(CTRL_EN | CTRL_IRQ_EN, td->regs + REG_CTRL);
	/* Unwound before the IRQ is freed: stop first, then free_irq(). */
	return devm_add_action_or_reset(dev, tadc_stop, td);
}

static const struct of_device_id tadc_dt_ids[] = {
	{ .compatible = "acme,tadc-100" },
	{ /* sentinel */ }
};
MODULE_DEVICE_TABLE(of, tadc_dt_ids);

static struct platform_driver tadc_platform_driver = {
	.driver = {
		.name = "acme-tadc",
		.of_match_table = tadc_dt_ids,
		.dev_groups = tadc_dev_groups,
	},
	.probe = tadc_probe,
};

static int __init tadc_init(void)
{
	return platform_driver_register(&tadc_platform_driver);
}
module_init(tadc_init);

static void __exit tadc_exit(void)
{
	platform_driver_unregister(&tadc_platform_driver);
}
module_exit(tadc_exit);

MODULE_AUTHOR("ACME");
MODULE_DESCRIPTION("Driver for the ACME TADC-100 memory-mapped temperature converter");
MODULE_LICENSE("GPL");
