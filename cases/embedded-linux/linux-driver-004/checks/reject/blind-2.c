/* defect: the init function returns positive EINVAL, which the module loader only warns about, so the out-of-range module stays loaded.
 * breaks: "If `sample_period_ms` is outside the valid range, the load must fail with `EINVAL` (`insmod` reports "Invalid parameters") and the module must not stay loaded."
 * must_fail: invalid_period_fails_with_einval
 */
// SPDX-License-Identifier: GPL-2.0
/*
 * acqcfg: load-time configuration of one data-acquisition channel.
 */
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/stat.h>
#include <linux/types.h>

#define ACQCFG_LABEL_LEN	32

static unsigned int sample_period_ms = 100;
static char label[ACQCFG_LABEL_LEN] = "acq0";

/* Read-only for everyone: the values are fixed once the module is loaded. */
module_param(sample_period_ms, uint, S_IRUGO);
MODULE_PARM_DESC(sample_period_ms,
		 "Sampling period in ms, 10 to 10000 inclusive (default 100)");

module_param_string(label, label, sizeof(label), S_IRUGO);
MODULE_PARM_DESC(label, "Channel label, up to 31 characters (default acq0)");

static bool __init acqcfg_period_valid(unsigned int period_ms)
{
	return period_ms >= 10 && period_ms <= 10000;
}

static int __init acqcfg_init(void)
{
	if (!acqcfg_period_valid(sample_period_ms)) {
		printk(KERN_ERR "acqcfg: sample_period_ms=%u out of range (10..10000)\n",
		       sample_period_ms);
		return EINVAL;
	}

	printk(KERN_INFO "acqcfg: loaded, label=%s sample_period_ms=%u\n",
	       label, sample_period_ms);
	return 0;
}
module_init(acqcfg_init);

static void __exit acqcfg_exit(void)
{
	printk(KERN_INFO "acqcfg: unloaded\n");
}
module_exit(acqcfg_exit);

MODULE_DESCRIPTION("acqcfg: data-acquisition channel configuration");
MODULE_AUTHOR("ACME");
MODULE_LICENSE("GPL");
