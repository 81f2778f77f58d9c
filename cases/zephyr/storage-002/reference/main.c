#include <errno.h>
#include <zephyr/kernel.h>
#include <zephyr/settings/settings.h>
#include <zephyr/sys/printk.h>

static uint32_t boot_count;

static int app_settings_set(const char *name, size_t len, settings_read_cb read_cb, void *cb_arg)
{
	const char *next;
	ssize_t rc;

	if (settings_name_steq(name, "boot_count", &next) && !next) {
		if (len != sizeof(boot_count)) {
			return -EINVAL;
		}
		rc = read_cb(cb_arg, &boot_count, sizeof(boot_count));
		if (rc < 0) {
			return rc;
		}
		return 0;
	}
	return -ENOENT;
}

SETTINGS_STATIC_HANDLER_DEFINE(app, "app", NULL, app_settings_set, NULL, NULL);

int main(void)
{
	int err;

	err = settings_subsys_init();
	if (err) {
		printk("settings init failed: %d\n", err);
		return err;
	}

	err = settings_load();
	if (err) {
		printk("settings load failed: %d\n", err);
		return err;
	}

	boot_count++;

	err = settings_save_one("app/boot_count", &boot_count, sizeof(boot_count));
	if (err) {
		printk("settings save failed: %d\n", err);
		return err;
	}

	printk("boot count: %u\n", boot_count);
	return 0;
}
