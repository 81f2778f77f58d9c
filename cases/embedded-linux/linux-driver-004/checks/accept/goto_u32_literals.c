// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <linux/module.h>

static char *label = "acq0";
static u32 sample_period_ms = 100;

module_param(label, charp, S_IRUSR | S_IRGRP | S_IROTH);
MODULE_PARM_DESC(label, "Channel label shown in the log");
module_param(sample_period_ms, uint, 0444);
MODULE_PARM_DESC(sample_period_ms, "Sample period in ms (10 to 10000)");

static int __init acqcfg_load(void)
{
	if (sample_period_ms < 10 || sample_period_ms > 10000)
		goto bad_period;

	pr_info("acqcfg: loaded, label=%s sample_period_ms=%u\n", label, sample_period_ms);
	return 0;

bad_period:
	pr_err("acqcfg: sample_period_ms=%u out of range (10..10000)\n", sample_period_ms);
	return -EINVAL;
}

static void __exit acqcfg_unload(void)
{
	pr_info("acqcfg: unloaded\n");
}

module_init(acqcfg_load);
module_exit(acqcfg_unload);

MODULE_DESCRIPTION("Acquisition channel parameters checked on load");
MODULE_LICENSE("GPL");
