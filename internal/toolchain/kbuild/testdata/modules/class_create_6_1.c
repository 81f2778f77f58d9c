// SPDX-License-Identifier: GPL-2.0
/*
 * A device class made with the class_create() of Linux 6.3 and earlier,
 * which takes the owning module first. Builds against 6.1 headers; against
 * 6.12 headers class_create takes the name only and the build fails.
 */
#include <linux/device.h>
#include <linux/err.h>
#include <linux/module.h>

static struct class *demo_class;

static int __init demo_init(void)
{
	demo_class = class_create(THIS_MODULE, "embedeval_demo");
	return PTR_ERR_OR_ZERO(demo_class);
}

static void __exit demo_exit(void)
{
	class_destroy(demo_class);
}

module_init(demo_init);
module_exit(demo_exit);
MODULE_LICENSE("GPL");
