#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <zephyr/pm/policy.h>
#include <errno.h>

#define FIRST_WINDOW     1
#define LAST_WINDOW      8
#define WINDOW_PERIOD_MS 100

static int acquire_block(int window)
{
	k_busy_wait(500);

	if ((window % 4) == 3) {
		return -EIO;
	}

	return 0;
}

int capture_window(int window)
{
	int ret;

	/* Suspend-to-RAM wake-up latency is incompatible with a running capture. */
	pm_policy_state_lock_get(PM_STATE_SUSPEND_TO_RAM, PM_ALL_SUBSTATES);

	ret = acquire_block(window);

	/* Always release, whatever the acquisition result. */
	pm_policy_state_lock_put(PM_STATE_SUSPEND_TO_RAM, PM_ALL_SUBSTATES);

	return ret;
}

int main(void)
{
	int ok = 0;
	int failed = 0;

	printk("capture app ready\n");

	for (int n = FIRST_WINDOW; n <= LAST_WINDOW; n++) {
		int err = capture_window(n);

		if (err == 0) {
			ok++;
			printk("window %d ok\n", n);
		} else {
			failed++;
			printk("window %d failed: %d\n", n, err);
		}

		if (n < LAST_WINDOW) {
			/* Lock is released here: the system may use any state. */
			k_msleep(WINDOW_PERIOD_MS);
		}
	}

	printk("capture done ok=%d failed=%d\n", ok, failed);

	return 0;
}
