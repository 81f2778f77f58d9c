#include <zephyr/kernel.h>
#include <zephyr/pm/policy.h>

static int acquire_block(int window)
{
	k_busy_wait(500);
	if (window % 4 == 3) {
		return -EIO;
	}
	return 0;
}

int capture_window(int window)
{
	pm_policy_state_lock_get(PM_STATE_SUSPEND_TO_RAM, PM_ALL_SUBSTATES);

	int rc = acquire_block(window);
	if (rc != 0) {
		pm_policy_state_lock_put(PM_STATE_SUSPEND_TO_RAM, PM_ALL_SUBSTATES);
		return rc;
	}

	pm_policy_state_lock_put(PM_STATE_SUSPEND_TO_RAM, PM_ALL_SUBSTATES);
	return 0;
}

int main(void)
{
	int good = 0, bad = 0;

	printk("capture app ready\n");
	for (int w = 1; w <= 8; w++) {
		int rc = capture_window(w);

		if (rc) {
			bad++;
			printk("window %d failed: %d\n", w, rc);
		} else {
			good++;
			printk("window %d ok\n", w);
		}
		k_sleep(K_MSEC(100));
	}
	printk("capture done ok=%d failed=%d\n", good, bad);
	return 0;
}
