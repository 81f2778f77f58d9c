/* defect: the policy lock is taken for substate 0 only instead of PM_ALL_SUBSTATES, so other suspend-to-RAM substates remain allowed during a capture.
 * breaks: "while it runs, the system must not enter suspend-to-RAM (in any of its substates)"
 * must_fail: suspend_to_ram_all_substates_locked
 */
#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <zephyr/pm/policy.h>
#include <zephyr/pm/state.h>
#include <errno.h>

#define NUM_WINDOWS      8
#define WINDOW_PERIOD_MS 100
#define CAPTURE_SUBSTATE 0

static int acquire_block(int window)
{
	k_busy_wait(500);

	return ((window % 4) == 3) ? -EIO : 0;
}

int capture_window(int window)
{
	int ret;

	pm_policy_state_lock_get(PM_STATE_SUSPEND_TO_RAM, CAPTURE_SUBSTATE);
	ret = acquire_block(window);
	pm_policy_state_lock_put(PM_STATE_SUSPEND_TO_RAM, CAPTURE_SUBSTATE);

	return ret;
}

int main(void)
{
	int ok = 0;
	int failed = 0;
	int64_t next = k_uptime_get();

	printk("capture app ready\n");

	for (int n = 1; n <= NUM_WINDOWS; n++) {
		int err;

		if (n > 1) {
			next += WINDOW_PERIOD_MS;
			k_sleep(K_TIMEOUT_ABS_MS(next));
		}

		err = capture_window(n);
		if (err < 0) {
			failed++;
			printk("window %d failed: %d\n", n, err);
		} else {
			ok++;
			printk("window %d ok\n", n);
		}
	}

	printk("capture done ok=%d failed=%d\n", ok, failed);

	return 0;
}
