#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/reboot.h>
#include <zephyr/dfu/mcuboot.h>

#define APP_PERIOD K_SECONDS(5)

static uint8_t scratch_buf[256];

K_TIMER_DEFINE(app_timer, NULL, NULL);

static int check_clock(void)
{
	int64_t mark = k_uptime_get();
	int64_t elapsed;

	k_sleep(K_MSEC(10));
	elapsed = k_uptime_delta(&mark);

	return (elapsed > 0) ? 0 : -ETIME;
}

static int check_scratch(void)
{
	static const uint8_t patterns[] = { 0x55, 0xAA, 0x00, 0xFF };

	for (size_t p = 0; p < ARRAY_SIZE(patterns); p++) {
		memset(scratch_buf, patterns[p], sizeof(scratch_buf));
		/* Make sure the compiler re-reads memory. */
		compiler_barrier();
		for (size_t i = 0; i < sizeof(scratch_buf); i++) {
			if (((volatile uint8_t *)scratch_buf)[i] != patterns[p]) {
				return -EIO;
			}
		}
	}

	return 0;
}

static int self_test(void)
{
	int err;

	err = check_clock();
	if (err) {
		printk("self-test: clock check failed (%d)\n", err);
		return err;
	}

	err = check_scratch();
	if (err) {
		printk("self-test: scratch check failed (%d)\n", err);
		return err;
	}

	return 0;
}

/*
 * Returns 0 when the running image is (now) permanent, a negative errno when
 * it could not be confirmed. Never returns when the self-test fails.
 */
static int accept_running_image(void)
{
	int err;

	if (boot_is_img_confirmed()) {
		printk("image already confirmed\n");
		return 0;
	}

	err = self_test();
	if (err) {
		printk("new image failed its self-test (%d); rolling back\n", err);
		/* Image stays unconfirmed: MCUboot reverts on this reset. */
		sys_reboot(SYS_REBOOT_WARM);
		CODE_UNREACHABLE;
	}

	err = boot_write_img_confirmed();
	if (err) {
		return err;
	}

	if (!boot_is_img_confirmed()) {
		return -EIO;
	}

	printk("image confirmed\n");
	return 0;
}

int main(void)
{
	int err;

	err = accept_running_image();
	if (err) {
		printk("cannot make image permanent: %d\n", err);
		return err;
	}

	k_timer_start(&app_timer, K_NO_WAIT, APP_PERIOD);
	for (;;) {
		k_timer_status_sync(&app_timer);
		printk("application running\n");
	}

	return 0;
}
