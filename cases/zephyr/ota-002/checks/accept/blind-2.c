#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <zephyr/storage/flash_map.h>
#include <zephyr/dfu/flash_img.h>
#include <zephyr/dfu/mcuboot.h>

#define SLOT1_ID FIXED_PARTITION_ID(slot1_partition)

enum ota_state {
	OTA_IDLE,      /* no successful ota_begin() */
	OTA_RECEIVING, /* accepting ota_write() */
	OTA_FAILED,    /* a step failed; only a new ota_begin() helps */
};

static enum ota_state state = OTA_IDLE;
static int failure;
static size_t expected_size;
static size_t stored_size;
static uint8_t expected_digest[32];
static struct flash_img_context flash_ctx;

static int fail(int err)
{
	state = OTA_FAILED;
	failure = err;
	return err;
}

static int prepare_slot(size_t image_size)
{
	const struct flash_area *fa;
	int rc;

	rc = flash_area_open(SLOT1_ID, &fa);
	if (rc) {
		return rc;
	}

	if (image_size > fa->fa_size) {
		rc = -ENOSPC;
	} else if (!IS_ENABLED(CONFIG_IMG_ERASE_PROGRESSIVELY)) {
		/* flash_img will not erase by itself: clear the slot now. */
		rc = flash_area_erase(fa, 0, fa->fa_size);
	}

	flash_area_close(fa);
	return rc;
}

int ota_begin(size_t image_size, const uint8_t sha256[32])
{
	int rc;

	state = OTA_IDLE;

	if (image_size == 0 || sha256 == NULL) {
		return -EINVAL;
	}

	rc = prepare_slot(image_size);
	if (rc) {
		return rc;
	}

	rc = flash_img_init_id(&flash_ctx, SLOT1_ID);
	if (rc) {
		return rc;
	}

	expected_size = image_size;
	stored_size = 0;
	memcpy(expected_digest, sha256, sizeof(expected_digest));
	failure = 0;
	state = OTA_RECEIVING;
	return 0;
}

int ota_write(const uint8_t *data, size_t len)
{
	int rc;

	switch (state) {
	case OTA_IDLE:
		return -EPERM;
	case OTA_FAILED:
		return failure;
	case OTA_RECEIVING:
		break;
	}

	if (len == 0) {
		return 0;
	}
	if (data == NULL) {
		return fail(-EINVAL);
	}
	if (stored_size + len < stored_size || stored_size + len > expected_size) {
		return fail(-EOVERFLOW);
	}

	rc = flash_img_buffered_write(&flash_ctx, data, len, false);
	if (rc) {
		return fail(rc);
	}

	stored_size += len;
	return 0;
}

static int verify_slot(void)
{
	const struct flash_img_check check = {
		.match = expected_digest,
		.clen = expected_size,
	};
	int rc;

	rc = flash_img_buffered_write(&flash_ctx, NULL, 0, true);
	if (rc) {
		return rc;
	}

	if (stored_size != expected_size ||
	    flash_img_bytes_written(&flash_ctx) != expected_size) {
		return -EBADMSG;
	}

	return flash_img_check(&flash_ctx, &check, SLOT1_ID);
}

int ota_finish(void)
{
	int rc;

	if (state == OTA_IDLE) {
		return -EPERM;
	}
	if (state == OTA_FAILED) {
		state = OTA_IDLE;
		return failure;
	}

	state = OTA_IDLE;

	rc = verify_slot();
	if (rc) {
		printk("image verification failed: %d\n", rc);
		return rc;
	}

	rc = boot_request_upgrade(BOOT_UPGRADE_TEST);
	if (rc) {
		printk("boot_request_upgrade failed: %d\n", rc);
		return rc;
	}

	printk("upgrade scheduled\n");
	return 0;
}

int main(void)
{
	printk("ota receiver ready\n");
	return 0;
}
