// SPDX-License-Identifier: GPL-2.0
/* Compiles, but calls a function no kernel exports: modpost must reject it. */
#include <linux/module.h>

extern int embedeval_no_such_export(int value);

static int __init undef_init(void)
{
	return embedeval_no_such_export(1);
}

static void __exit undef_exit(void)
{
}

module_init(undef_init);
module_exit(undef_exit);
MODULE_LICENSE("GPL");
