#include <zephyr/kernel.h>
#include <zephyr/dfu/mcuboot.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/reboot.h>

#define SCRATCH_LEN 256

static uint8_t scratch[SCRATCH_LEN];

static int self_test(void)
{
	int64_t start = k_uptime_get();

	k_msleep(10);
	if (k_uptime_get() - start < 10) {
		return -ETIME;
	}

	for (size_t i = 0; i < SCRATCH_LEN; i++) {
		scratch[i] = (uint8_t)(i ^ 0xA5);
	}
	for (size_t i = 0; i < SCRATCH_LEN; i++) {
		if (scratch[i] != (uint8_t)(i ^ 0xA5)) {
			return -EIO;
		}
	}
	return 0;
}

static int confirm_running_image(void)
{
	int ret;

	if (boot_is_img_confirmed()) {
		printk("image already confirmed\n");
		return 0;
	}

	ret = self_test();
	if (ret < 0) {
		printk("self-test failed (%d), reverting\n", ret);
		sys_reboot(SYS_REBOOT_COLD);
		return ret;
	}

	ret = boot_write_img_confirmed();
	if (ret < 0) {
		printk("image confirm failed (%d)\n", ret);
		return ret;
	}

	printk("image confirmed\n");
	return 0;
}

int main(void)
{
	int ret = confirm_running_image();

	if (ret < 0) {
		return ret;
	}

	while (1) {
		printk("application running\n");
		k_sleep(K_SECONDS(5));
	}
	return 0;
}
