/* defect: the set handler reads the stored record with the length taken from storage into the 4-byte counter, without checking it first, so an oversized record overwrites adjacent memory.
 * breaks: "Stored data may be corrupt or come from an older firmware with a different layout: such a record must never overwrite memory or be silently accepted."
 * must_fail: set_handler_validates_length
 */
#include <errno.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/settings/settings.h>
#include <zephyr/sys/printk.h>

static uint32_t boot_count;

static int app_settings_set(const char *name, size_t len,
			    settings_read_cb read_cb, void *cb_arg)
{
	const char *next;
	ssize_t rc;

	if (settings_name_steq(name, "boot_count", &next) && !next) {
		rc = read_cb(cb_arg, &boot_count, len);
		if (rc < 0) {
			return (int)rc;
		}
		return 0;
	}

	return -ENOENT;
}

SETTINGS_STATIC_HANDLER_DEFINE(app, "app", NULL, app_settings_set, NULL, NULL);

int main(void)
{
	int rc;

	rc = settings_subsys_init();
	if (rc) {
		printk("settings init failed: %d\n", rc);
		return rc;
	}

	rc = settings_load();
	if (rc) {
		printk("settings load failed: %d\n", rc);
		return rc;
	}

	boot_count++;

	rc = settings_save_one("app/boot_count", &boot_count, sizeof(boot_count));
	if (rc) {
		printk("settings save failed: %d\n", rc);
		return rc;
	}

	printk("boot count: %u\n", boot_count);
	return 0;
}
