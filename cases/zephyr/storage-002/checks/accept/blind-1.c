/*
 * Persistent boot counter kept in the Zephyr settings subsystem (NVS backend).
 */
#include <errno.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/settings/settings.h>
#include <zephyr/sys/printk.h>

#define APP_SUBTREE     "app"
#define BOOT_COUNT_NAME "boot_count"
#define BOOT_COUNT_KEY  APP_SUBTREE "/" BOOT_COUNT_NAME

static uint32_t boot_count;

static int app_settings_set(const char *name, size_t len,
			    settings_read_cb read_cb, void *cb_arg)
{
	const char *next;

	if (settings_name_steq(name, BOOT_COUNT_NAME, &next) && next == NULL) {
		uint32_t value;
		ssize_t rc;

		/* Reject records with an unexpected layout before reading. */
		if (len != sizeof(value)) {
			return -EINVAL;
		}

		rc = read_cb(cb_arg, &value, sizeof(value));
		if (rc < 0) {
			return (int)rc;
		}
		if (rc != sizeof(value)) {
			return -EINVAL;
		}

		boot_count = value;
		return 0;
	}

	return -ENOENT;
}

SETTINGS_STATIC_HANDLER_DEFINE(app, APP_SUBTREE, NULL, app_settings_set,
			       NULL, NULL);

int main(void)
{
	uint32_t new_count;
	int rc;

	rc = settings_subsys_init();
	if (rc != 0) {
		printk("settings init failed: %d\n", rc);
		return rc < 0 ? rc : -EIO;
	}

	rc = settings_load();
	if (rc != 0) {
		printk("settings load failed: %d\n", rc);
		return rc < 0 ? rc : -EIO;
	}

	new_count = boot_count + 1U;

	rc = settings_save_one(BOOT_COUNT_KEY, &new_count, sizeof(new_count));
	if (rc != 0) {
		printk("settings save failed: %d\n", rc);
		return rc < 0 ? rc : -EIO;
	}

	boot_count = new_count;
	printk("boot count: %u\n", boot_count);

	return 0;
}
