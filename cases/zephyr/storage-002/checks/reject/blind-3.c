/* defect: the return code of settings_save_one() is ignored, so a failed write still prints the new count and main returns 0.
 * breaks: "If the settings subsystem cannot be initialised, loaded or written, print an error and return from `main` with a negative errno."
 * must_fail: settings_errors_propagated
 */
#include <errno.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/settings/settings.h>
#include <zephyr/sys/printk.h>

#define BOOT_COUNT_KEY "app/boot_count"

static uint32_t boot_count;

static int app_settings_set(const char *name, size_t len,
			    settings_read_cb read_cb, void *cb_arg)
{
	const char *next;

	if (settings_name_steq(name, "boot_count", &next) && next == NULL) {
		uint32_t value;
		ssize_t rc;

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

SETTINGS_STATIC_HANDLER_DEFINE(app, "app", NULL, app_settings_set, NULL, NULL);

int main(void)
{
	int rc;

	rc = settings_subsys_init();
	if (rc != 0) {
		printk("settings init failed: %d\n", rc);
		return rc;
	}

	rc = settings_load();
	if (rc != 0) {
		printk("settings load failed: %d\n", rc);
		return rc;
	}

	boot_count++;
	(void)settings_save_one(BOOT_COUNT_KEY, &boot_count, sizeof(boot_count));

	printk("boot count: %u\n", boot_count);
	return 0;
}
