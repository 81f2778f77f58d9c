#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <zephyr/pm/policy.h>
#include <zephyr/pm/state.h>
#include <errno.h>

#define NUM_WINDOWS      8
#define WINDOW_PERIOD_MS 100

static int acquire_block(int window)
{
	/* Simulated front end: the conversion takes 500 us of active CPU time. */
	k_busy_wait(500);

	return ((window % 4) == 3) ? -EIO : 0;
}

static inline void capture_latency_guard_enter(void)
{
	pm_policy_state_lock_get(PM_STATE_SUSPEND_TO_RAM, PM_ALL_SUBSTATES);
}

static inline void capture_latency_guard_exit(void)
{
	pm_policy_state_lock_put(PM_STATE_SUSPEND_TO_RAM, PM_ALL_SUBSTATES);
}

int capture_window(int window)
{
	int ret;

	capture_latency_guard_enter();

	ret = acquire_block(window);
	if (ret < 0) {
		goto out;
	}

	ret = 0;

out:
	capture_latency_guard_exit();
	return ret;
}

int main(void)
{
	int counts[2] = { 0, 0 }; /* [0] = ok, [1] = failed */
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
			counts[1]++;
			printk("window %d failed: %d\n", n, err);
		} else {
			counts[0]++;
			printk("window %d ok\n", n);
		}
	}

	printk("capture done ok=%d failed=%d\n", counts[0], counts[1]);

	return 0;
}
