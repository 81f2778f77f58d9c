// SPDX-License-Identifier: GPL-2.0
/* A module with a compiler warning (unused variable): warnings do not fail L1. */
#include <linux/module.h>

static int __init warn_init(void)
{
	int unused;

	pr_info("embedeval warning module\n");
	return 0;
}

static void __exit warn_exit(void)
{
}

module_init(warn_init);
module_exit(warn_exit);
MODULE_LICENSE("GPL");
