#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/settings/settings.h>
#include <zephyr/sys/printk.h>

static uint32_t boot_count;

static bool is_boot_count(const char *name)
{
	return (name != NULL) && (strcmp(name, "boot_count") == 0);
}

static int app_get(const char *name, char *val, int val_len_max)
{
	if (!is_boot_count(name)) {
		return -ENOENT;
	}
	if (val_len_max < (int)sizeof(boot_count)) {
		return -EINVAL;
	}
	memcpy(val, &boot_count, sizeof(boot_count));
	return sizeof(boot_count);
}

static int app_set(const char *name, size_t len, settings_read_cb read_cb,
		   void *cb_arg)
{
	uint32_t tmp = 0;
	ssize_t got;

	if (!is_boot_count(name)) {
		return -ENOENT;
	}

	if (len != sizeof(tmp)) {
		/* Corrupt record or layout from another firmware version. */
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
	.h_get = app_get,
	.h_set = app_set,
};

static int fail(const char *what, int err)
{
	printk("error: %s failed (%d)\n", what, err);
	return (err < 0) ? err : -EIO;
}

int main(void)
{
	uint32_t value;
	int err;

	err = settings_subsys_init();
	if (err) {
		return fail("settings_subsys_init", err);
	}

	err = settings_register(&app_handler);
	if (err) {
		return fail("settings_register", err);
	}

	err = settings_load_subtree("app");
	if (err) {
		return fail("settings_load_subtree", err);
	}

	value = boot_count + 1U;
	err = settings_save_one("app/boot_count", &value, sizeof(value));
	if (err) {
		return fail("settings_save_one", err);
	}
	boot_count = value;

	printk("boot count: %u\n", value);
	return 0;
}
