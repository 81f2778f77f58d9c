// SPDX-License-Identifier: GPL-2.0
/*
 * acqcfg: acquisition channel configuration, fixed at load time.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/stat.h>
#include <linux/types.h>

MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("acqcfg: load-time configuration of one acquisition channel");

#define ACQ_LABEL_LEN 32

static unsigned int period_ms = 100;
module_param_named(sample_period_ms, period_ms, uint, S_IRUGO);
MODULE_PARM_DESC(sample_period_ms, "sampling period [ms], valid 10-10000");

static char chan_label[ACQ_LABEL_LEN] = "acq0";
module_param_string(label, chan_label, sizeof(chan_label), S_IRUGO);
MODULE_PARM_DESC(label, "channel label");

static int __init acq_check_period(void)
{
	if (10 <= period_ms && period_ms <= 10000)
		return 0;

	printk(KERN_ERR "acqcfg: sample_period_ms=%u out of range (10..10000)\n", period_ms);
	return -EINVAL;
}

static int __init acq_start(void)
{
	int err;

	err = acq_check_period();
	if (err)
		return err;

	printk(KERN_INFO "acqcfg: loaded, label=%s sample_period_ms=%u\n", chan_label, period_ms);
	return 0;
}
module_init(acq_start);

static void __exit acq_stop(void)
{
	printk(KERN_INFO "acqcfg: unloaded\n");
}
module_exit(acq_stop);
