/* defect: both parameters are registered with sysfs mode 0644, so root can rewrite them after the module is loaded.
 * breaks: "After loading, any user can read the current value of both parameters under `/sys/module/acqcfg/parameters/`, but nobody, root included, can change them while the module is loaded: they are fixed at load time."
 * must_fail: params_read_only_in_sysfs
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
module_param(sample_period_ms, uint, 0644);
MODULE_PARM_DESC(sample_period_ms,
		 "Sampling period in milliseconds (10..10000, default 100)");

static char *label = "acq0";
module_param(label, charp, 0644);
MODULE_PARM_DESC(label, "Text label naming the channel (default \"acq0\")");

static int __init acqcfg_init(void)
{
	if (sample_period_ms < ACQCFG_PERIOD_MIN_MS ||
	    sample_period_ms > ACQCFG_PERIOD_MAX_MS) {
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
