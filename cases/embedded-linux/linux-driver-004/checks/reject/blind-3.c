/* defect: the upper bound check uses >=, so the valid period 10000 ms is rejected.
 * breaks: "`sample_period_ms`: an unsigned integer, the sampling period in milliseconds. Default 100. Valid values are 10 to 10000 inclusive."
 * must_fail: period_range_enforced
 */
// SPDX-License-Identifier: GPL-2.0
/*
 * acqcfg - configuration holder for a data-acquisition channel.
 *
 * Accepts a sampling period and a channel label at load time, validates
 * them and reports the result in the kernel log.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>

#define ACQCFG_PERIOD_MIN_MS	10U
#define ACQCFG_PERIOD_MAX_MS	10000U

static unsigned int sample_period_ms = 100;
module_param(sample_period_ms, uint, 0444);
MODULE_PARM_DESC(sample_period_ms,
		 "Sampling period in milliseconds (10..10000, default 100)");

static char *label = "acq0";
module_param(label, charp, 0444);
MODULE_PARM_DESC(label, "Text label naming the channel (default \"acq0\")");

static int __init acqcfg_init(void)
{
	if (sample_period_ms < ACQCFG_PERIOD_MIN_MS ||
	    sample_period_ms >= ACQCFG_PERIOD_MAX_MS) {
		pr_err("sample_period_ms=%u out of range (%u..%u)\n",
		       sample_period_ms, ACQCFG_PERIOD_MIN_MS,
		       ACQCFG_PERIOD_MAX_MS);
		return -EINVAL;
	}

	pr_info("loaded, label=%s sample_period_ms=%u\n",
		label, sample_period_ms);
	return 0;
}

static void __exit acqcfg_exit(void)
{
	pr_info("unloaded\n");
}

module_init(acqcfg_init);
module_exit(acqcfg_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("ACME Data Acquisition");
MODULE_DESCRIPTION("Data-acquisition channel configuration (period and label)");
