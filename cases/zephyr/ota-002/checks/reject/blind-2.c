/* defect: The upgrade is requested with BOOT_UPGRADE_PERMANENT, so MCUboot installs the new image permanently and cannot revert if it never confirms itself.
 * breaks: "If, and only if, the update slot now holds exactly the announced image, it asks MCUboot to install it at the next reset in a way that lets MCUboot return to the current firmware if the new one never confirms itself."
 * must_fail: upgrade_requested_as_test
 */
/*
 * OTA receiver: streams a signed MCUboot image into the secondary slot,
 * verifies size and SHA-256, then requests the upgrade from MCUboot.
 */

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <zephyr/storage/flash_map.h>
#include <zephyr/dfu/flash_img.h>
#include <zephyr/dfu/mcuboot.h>

#define UPDATE_SLOT_ID FIXED_PARTITION_ID(slot1_partition)
#define SHA256_LEN     32

int ota_begin(size_t image_size, const uint8_t sha256[32]);
int ota_write(const uint8_t *data, size_t len);
int ota_finish(void);

static struct flash_img_context img_ctx;

static struct {
	bool active;          /* a successful ota_begin() is in effect */
	size_t image_size;    /* announced size */
	size_t received;      /* bytes accepted by ota_write() so far */
	uint8_t sha256[SHA256_LEN];
} ota;

static void ota_abort(void)
{
	ota.active = false;
	ota.image_size = 0;
	ota.received = 0;
}

int ota_begin(size_t image_size, const uint8_t sha256[32])
{
	const struct flash_area *fa;
	size_t slot_size;
	int rc;

	/* Any previous, unfinished session is dropped. */
	ota_abort();

	if (sha256 == NULL || image_size == 0) {
		return -EINVAL;
	}

	rc = flash_area_open(UPDATE_SLOT_ID, &fa);
	if (rc < 0) {
		return rc;
	}
	slot_size = fa->fa_size;
	flash_area_close(fa);

	if (image_size > slot_size) {
		return -EFBIG;
	}

	/* Erase the whole secondary slot, including a stale trailer. */
	rc = boot_erase_img_bank(UPDATE_SLOT_ID);
	if (rc < 0) {
		return rc;
	}

	rc = flash_img_init_id(&img_ctx, UPDATE_SLOT_ID);
	if (rc < 0) {
		return rc;
	}

	memcpy(ota.sha256, sha256, SHA256_LEN);
	ota.image_size = image_size;
	ota.received = 0;
	ota.active = true;

	return 0;
}

int ota_write(const uint8_t *data, size_t len)
{
	int rc;

	if (!ota.active) {
		return -EPERM;
	}
	if (len == 0) {
		return 0;
	}
	if (data == NULL) {
		ota_abort();
		return -EINVAL;
	}
	if (len > ota.image_size - ota.received) {
		/* More data than announced: the image cannot be the right one. */
		ota_abort();
		return -EFBIG;
	}

	rc = flash_img_buffered_write(&img_ctx, data, len, false);
	if (rc < 0) {
		ota_abort();
		return rc;
	}

	ota.received += len;
	return 0;
}

int ota_finish(void)
{
	struct flash_img_check fic;
	int rc;

	if (!ota.active) {
		return -EPERM;
	}

	/* One attempt per session, whatever the outcome. */
	ota.active = false;

	if (ota.received != ota.image_size) {
		return -EMSGSIZE;
	}

	/* Write out the last, partially filled block. */
	rc = flash_img_buffered_write(&img_ctx, NULL, 0, true);
	if (rc < 0) {
		return rc;
	}

	if (flash_img_bytes_written(&img_ctx) != ota.image_size) {
		return -EIO;
	}

	fic.match = ota.sha256;
	fic.clen = ota.image_size;
	rc = flash_img_check(&img_ctx, &fic, UPDATE_SLOT_ID);
	if (rc < 0) {
		return rc;
	}

	/* Hand the verified image over to MCUboot. */
	rc = boot_request_upgrade(BOOT_UPGRADE_PERMANENT);
	if (rc < 0) {
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
