/* defect: acquire_block sleeps for 500 us (k_usleep) instead of busy-waiting, so the CPU idles while the suspend-to-RAM lock is held.
 * breaks: "A helper `static int acquire_block(int window)` simulates the hardware: it busy-waits 500 microseconds"
 * must_fail: no_idle_wait_while_state_locked
 */
#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <zephyr/pm/policy.h>
#include <errno.h>

#define FIRST_WINDOW     1
#define LAST_WINDOW      8
#define WINDOW_PERIOD_MS 100
#define ACQUIRE_TIME_US  500

static int acquire_block(int window)
{
	k_usleep(ACQUIRE_TIME_US);

	if ((window % 4) == 3) {
		return -EIO;
	}

	return 0;
}

int capture_window(int window)
{
	int ret;

	pm_policy_state_lock_get(PM_STATE_SUSPEND_TO_RAM, PM_ALL_SUBSTATES);
	ret = acquire_block(window);
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
			k_msleep(WINDOW_PERIOD_MS);
		}
	}

	printk("capture done ok=%d failed=%d\n", ok, failed);

	return 0;
}
