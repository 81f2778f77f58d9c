/* defect: the set handler returns 0 for any key in the app subtree it does not recognise instead of -ENOENT.
 * breaks: "Keys in the `app` subtree that the application does not know must be reported as not found."
 * must_fail: unknown_keys_rejected
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/settings/settings.h>
#include <zephyr/sys/printk.h>

static uint32_t boot_count;

static int app_set(const char *name, size_t len, settings_read_cb read_cb,
		   void *cb_arg)
{
	uint32_t tmp;
	ssize_t got;

	if (name == NULL || strcmp(name, "boot_count") != 0) {
		/* Not ours: ignore it. */
		return 0;
	}

	if (len != sizeof(tmp)) {
		return -EINVAL;
	}

	got = read_cb(cb_arg, &tmp, sizeof(tmp));
	if (got < 0) {
		return (int)got;
	}
	if ((size_t)got != sizeof(tmp)) {
		return -EINVAL;
	}

	boot_count = tmp;
	return 0;
}

static struct settings_handler app_handler = {
	.name = "app",
	.h_set = app_set,
};

int main(void)
{
	uint32_t value;
	int err;

	err = settings_subsys_init();
	if (err) {
		printk("error: settings_subsys_init failed (%d)\n", err);
		return err;
	}

	err = settings_register(&app_handler);
	if (err) {
		printk("error: settings_register failed (%d)\n", err);
		return err;
	}

	err = settings_load_subtree("app");
	if (err) {
		printk("error: settings_load_subtree failed (%d)\n", err);
		return err;
	}

	value = boot_count + 1U;
	err = settings_save_one("app/boot_count", &value, sizeof(value));
	if (err) {
		printk("error: settings_save_one failed (%d)\n", err);
		return err;
	}
	boot_count = value;

	printk("boot count: %u\n", value);
	return 0;
}
