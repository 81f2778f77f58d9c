#include <zephyr/kernel.h>
#include <zephyr/pm/policy.h>
#include <zephyr/sys/printk.h>

#define WINDOWS 8

static int acquire_block(int window)
{
	k_busy_wait(500);
	return (window % 4 == 3) ? -EIO : 0;
}

int capture_window(int window)
{
	int err;

	pm_policy_state_lock_get(PM_STATE_SUSPEND_TO_RAM, PM_ALL_SUBSTATES);
	err = acquire_block(window);
	pm_policy_state_lock_put(PM_STATE_SUSPEND_TO_RAM, PM_ALL_SUBSTATES);

	return err;
}

int main(void)
{
	int ok = 0;
	int failed = 0;

	printk("capture app ready\n");

	for (int n = 1; n <= WINDOWS; n++) {
		int err = capture_window(n);

		if (err < 0) {
			printk("window %d failed: %d\n", n, err);
			failed++;
		} else {
			printk("window %d ok\n", n);
			ok++;
		}
		k_msleep(100);
	}

	printk("capture done ok=%d failed=%d\n", ok, failed);
	return 0;
}
