#include <errno.h>
#include <string.h>
#include <zephyr/kernel.h>
#include <zephyr/dfu/flash_img.h>
#include <zephyr/dfu/mcuboot.h>
#include <zephyr/storage/flash_map.h>
#include <zephyr/logging/log.h>

LOG_MODULE_REGISTER(ota, LOG_LEVEL_INF);

enum ota_state { OTA_IDLE, OTA_RECEIVING };

static struct {
	struct flash_img_context flash;
	uint8_t digest[32];
	size_t image_len;
	enum ota_state state;
} ota;

int ota_begin(size_t image_size, const uint8_t sha256[32])
{
	int err;

	ota.state = OTA_IDLE;
	err = flash_img_init_id(&ota.flash, FIXED_PARTITION_ID(slot1_partition));
	if (err) {
		LOG_ERR("flash_img_init_id: %d", err);
		return err;
	}
	memcpy(ota.digest, sha256, sizeof(ota.digest));
	ota.image_len = image_size;
	ota.state = OTA_RECEIVING;
	return 0;
}

int ota_write(const uint8_t *data, size_t len)
{
	if (ota.state != OTA_RECEIVING) {
		return -EPERM;
	}

	int err = flash_img_buffered_write(&ota.flash, data, len, false);

	if (err) {
		ota.state = OTA_IDLE;
		return err;
	}
	return 0;
}

int ota_finish(void)
{
	int err;

	if (ota.state != OTA_RECEIVING) {
		return -EPERM;
	}
	ota.state = OTA_IDLE;

	err = flash_img_buffered_write(&ota.flash, NULL, 0, true);
	if (err) {
		goto fail;
	}

	size_t written = flash_img_bytes_written(&ota.flash);

	if (written != ota.image_len) {
		err = -EMSGSIZE;
		goto fail;
	}

	const struct flash_img_check check = { .match = ota.digest, .clen = written };

	err = flash_img_check(&ota.flash, &check, FIXED_PARTITION_ID(slot1_partition));
	if (err) {
		goto fail;
	}

	err = boot_request_upgrade(BOOT_UPGRADE_TEST);
	if (err) {
		goto fail;
	}
	LOG_INF("upgrade scheduled");
	return 0;

fail:
	LOG_ERR("update rejected: %d", err);
	return err;
}

int main(void)
{
	LOG_INF("ota receiver ready");
	return 0;
}
