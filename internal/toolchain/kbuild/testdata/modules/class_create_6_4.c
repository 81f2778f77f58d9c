// SPDX-License-Identifier: GPL-2.0
/*
 * A device class made with the class_create() of Linux 6.4 and later, which
 * takes the name only (6.4 removed the owner argument). Builds against 6.12
 * headers; against 6.1 headers class_create is a two-argument macro and the
 * build fails.
 */
#include <linux/device.h>
#include <linux/err.h>
#include <linux/module.h>

static struct class *demo_class;

static int __init demo_init(void)
{
	demo_class = class_create("embedeval_demo");
	return PTR_ERR_OR_ZERO(demo_class);
}

static void __exit demo_exit(void)
{
	class_destroy(demo_class);
}

module_init(demo_init);
module_exit(demo_exit);
MODULE_LICENSE("GPL");
