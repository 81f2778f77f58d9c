#include <zephyr/kernel.h>
#include <zephyr/dfu/mcuboot.h>
#include <zephyr/logging/log.h>
#include <zephyr/storage/flash_map.h>
#include <zephyr/sys/reboot.h>

LOG_MODULE_REGISTER(app, LOG_LEVEL_INF);

/* Minimal self-test: the running image's slot must be reachable. */
static int self_test(void)
{
	const struct flash_area *fa;
	int err = flash_area_open(FIXED_PARTITION_ID(slot0_partition), &fa);

	if (err) {
		return err;
	}
	flash_area_close(fa);
	return 0;
}

int main(void)
{
	if (!boot_is_img_confirmed()) {
		int err = self_test();

		if (err == 0) {
			err = boot_write_img_confirmed();
		}
		if (err) {
			LOG_ERR("self-test or confirm failed (%d), reverting", err);
			sys_reboot(SYS_REBOOT_COLD);
		}
		LOG_INF("image confirmed");
	}
	LOG_INF("data logger running");
	return 0;
}
