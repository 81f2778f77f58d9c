#include <zephyr/settings/settings.h>
#include <zephyr/sys/printk.h>
#include <zephyr/kernel.h>
#include <stdbool.h>
#include <string.h>
#include <errno.h>

#define TREE_ROOT   "app"
#define COUNTER_LEAF "boot_count"

/* What the settings backend handed back at load time. */
static struct {
	uint32_t value;
	bool restored;
} saved_boots;

static int tree_set(const char *key, size_t len, settings_read_cb read_cb, void *cb_arg)
{
	const char *rest = NULL;
	int leaf_len = settings_name_next(key, &rest);
	uint32_t staged;
	ssize_t got;

	/* Only the single leaf "boot_count" belongs to us; anything else is unknown. */
	if (rest != NULL || leaf_len != (int)strlen(COUNTER_LEAF) ||
	    strncmp(key, COUNTER_LEAF, leaf_len) != 0) {
		return -ENOENT;
	}

	/* A record of another size is corrupt or from an older layout. */
	if (sizeof(staged) != len) {
		return -EINVAL;
	}

	/* Read into a scratch word so a short or failed read leaves the counter alone. */
	got = read_cb(cb_arg, &staged, sizeof(staged));
	if (got < 0) {
		return (int)got;
	}
	if (got != (ssize_t)sizeof(staged)) {
		return -EIO;
	}

	saved_boots.value = staged;
	saved_boots.restored = true;
	return 0;
}

SETTINGS_STATIC_HANDLER_DEFINE(boot_tree, TREE_ROOT, NULL, tree_set, NULL, NULL);

int main(void)
{
	const char *stage = "init";
	uint32_t next_value;
	int status;

	status = settings_subsys_init();
	if (status != 0) {
		goto fail;
	}

	stage = "load";
	status = settings_load();
	if (status != 0) {
		goto fail;
	}

	next_value = saved_boots.value + 1U;

	stage = "save";
	status = settings_save_one(TREE_ROOT "/" COUNTER_LEAF, &next_value, sizeof(next_value));
	if (status != 0) {
		goto fail;
	}
	saved_boots.value = next_value;

	printk("boot count: %u\n", next_value);
	return 0;

fail:
	printk("settings %s failed: %d\n", stage, status);
	return status;
}
