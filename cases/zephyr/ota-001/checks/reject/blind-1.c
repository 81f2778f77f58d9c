/* defect: The image is written as confirmed before the self-test runs, so a new image that then fails its self-test is already permanent and the reboot no longer reverts it.
 * breaks: "Only a new image that passes its self-test may become permanent; print `image confirmed` once it is."
 * must_fail: self_test_before_confirm
 */
/*
 * MCUboot test-image acceptance: confirm the running image only after a
 * successful self-test, otherwise reboot so MCUboot reverts.
 */

#include <errno.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/reboot.h>
#include <zephyr/dfu/mcuboot.h>

#define SCRATCH_SIZE 256

static uint8_t scratch[SCRATCH_SIZE];

static int self_test(void)
{
	volatile uint8_t *mem = scratch;
	int64_t before;
	int64_t after;

	/* 1. The system clock must advance across a 10 ms sleep. */
	before = k_uptime_get();
	k_msleep(10);
	after = k_uptime_get();
	if (after <= before) {
		printk("self-test: clock did not advance\n");
		return -ETIME;
	}

	/* 2. The scratch buffer must read back what was written (two patterns). */
	for (size_t i = 0; i < SCRATCH_SIZE; i++) {
		mem[i] = (uint8_t)(0xA5 ^ i);
	}
	for (size_t i = 0; i < SCRATCH_SIZE; i++) {
		if (mem[i] != (uint8_t)(0xA5 ^ i)) {
			printk("self-test: RAM mismatch at %u\n", (unsigned int)i);
			return -EIO;
		}
	}
	for (size_t i = 0; i < SCRATCH_SIZE; i++) {
		mem[i] = (uint8_t)~(0xA5 ^ i);
	}
	for (size_t i = 0; i < SCRATCH_SIZE; i++) {
		if (mem[i] != (uint8_t)~(0xA5 ^ i)) {
			printk("self-test: RAM mismatch at %u\n", (unsigned int)i);
			return -EIO;
		}
	}

	return 0;
}

int main(void)
{
	int ret;

	if (boot_is_img_confirmed()) {
		printk("image already confirmed\n");
	} else {
		ret = boot_write_img_confirmed();
		if (ret < 0) {
			printk("image confirmation failed: %d\n", ret);
			return ret;
		}

		ret = self_test();
		if (ret < 0) {
			printk("self-test failed: %d, reverting to previous image\n", ret);
			sys_reboot(SYS_REBOOT_COLD);
			return ret; /* not reached */
		}
		printk("image confirmed\n");
	}

	while (1) {
		printk("application running\n");
		k_sleep(K_SECONDS(5));
	}

	return 0;
}
