#include <zephyr/kernel.h>
#include <zephyr/settings/settings.h>
#include <string.h>

static uint32_t counter;

static int counter_set(const char *key, size_t len, settings_read_cb read_cb, void *cb_arg)
{
	if (strcmp(key, "boot_count") != 0) {
		return -ENOENT;
	}
	if (len != sizeof(counter)) {
		return -EINVAL;
	}
	if (read_cb(cb_arg, &counter, sizeof(counter)) != sizeof(counter)) {
		return -EIO;
	}
	return 0;
}

static struct settings_handler counter_handler = {
	.name = "app",
	.h_set = counter_set,
};

int main(void)
{
	int rc = settings_subsys_init();

	if (rc != 0) {
		printk("settings_subsys_init: %d\n", rc);
		return rc;
	}
	rc = settings_register(&counter_handler);
	if (rc != 0) {
		printk("settings_register: %d\n", rc);
		return rc;
	}
	rc = settings_load_subtree("app");
	if (rc != 0) {
		printk("settings_load_subtree: %d\n", rc);
		return rc;
	}
	counter += 1;
	rc = settings_save_one("app/boot_count", &counter, sizeof(counter));
	if (rc != 0) {
		printk("settings_save_one: %d\n", rc);
		return rc;
	}
	printk("boot count: %u\n", counter);
	return 0;
}
