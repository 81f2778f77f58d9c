#include <errno.h>
#include <string.h>
#include <zephyr/kernel.h>
#include <zephyr/dfu/mcuboot.h>
#include <zephyr/logging/log.h>
#include <zephyr/sys/reboot.h>

LOG_MODULE_REGISTER(app, LOG_LEVEL_INF);

static uint32_t scratch[64];

static int self_test(void)
{
	int64_t t0 = k_uptime_get();

	k_msleep(10);
	if (k_uptime_get() <= t0) {
		return -ETIMEDOUT;
	}

	memset(scratch, 0x5A, sizeof(scratch));
	const uint8_t *p = (const uint8_t *)scratch;

	for (size_t i = 0; i < sizeof(scratch); i++) {
		if (p[i] != 0x5A) {
			return -EFAULT;
		}
	}
	return 0;
}

int main(void)
{
	if (!boot_is_img_confirmed()) {
		if (self_test() != 0) {
			LOG_ERR("self-test failed, rebooting into previous image");
			sys_reboot(SYS_REBOOT_WARM);
		}

		int err = boot_write_img_confirmed();

		if (err) {
			LOG_ERR("boot_write_img_confirmed: %d", err);
			return err;
		}
		LOG_INF("image confirmed");
	} else {
		LOG_INF("image already confirmed");
	}

	for (;;) {
		LOG_INF("application running");
		k_sleep(K_SECONDS(5));
	}
	return 0;
}
