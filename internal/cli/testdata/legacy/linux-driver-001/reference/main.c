#include <linux/init.h>
#include <linux/module.h>

static int __init fixture_init(void)
{
	pr_info("fixture: loaded\n");
	return 0;
}

static void __exit fixture_exit(void)
{
	pr_info("fixture: unloaded\n");
}

module_init(fixture_init);
module_exit(fixture_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("EmbedEval legacy-layout fixture");
