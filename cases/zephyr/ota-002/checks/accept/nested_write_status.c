/*
 * OTA receiver: streams a signed MCUboot image into the secondary slot and,
 * once its length and SHA-256 are confirmed, schedules a revertible swap.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <zephyr/storage/flash_map.h>
#include <zephyr/dfu/mcuboot.h>
#include <zephyr/dfu/flash_img.h>

#define DFU_AREA      FIXED_PARTITION_ID(slot1_partition)
#define DFU_AREA_SIZE FIXED_PARTITION_SIZE(slot1_partition)

struct dfu_job {
	struct flash_img_context sink;
	uint8_t want_sha[32];
	size_t announced_len;
	size_t accepted_len;
	bool active;
};

static struct dfu_job job;

/* Pushes the buffered tail to flash and confirms nothing is missing. */
static int dfu_seal(struct dfu_job *j)
{
	int err = flash_img_buffered_write(&j->sink, NULL, 0, true);

	if (err != 0) {
		return err;
	}
	if (flash_img_bytes_written(&j->sink) != j->announced_len) {
		return -EMSGSIZE;
	}
	return 0;
}

/* Hashes what the slot now holds and compares it with the announced digest. */
static int dfu_verify_digest(struct dfu_job *j)
{
	const struct flash_img_check expect = {
		.match = j->want_sha,
		.clen = j->announced_len,
	};

	return flash_img_check(&j->sink, &expect, DFU_AREA);
}

int ota_finish(void)
{
	int err;

	if (!job.active) {
		return -EPERM;
	}
	/* Whatever happens below, this transfer is over. */
	job.active = false;

	err = dfu_seal(&job);
	if (err != 0) {
		return err;
	}
	err = dfu_verify_digest(&job);
	if (err != 0) {
		return err;
	}
	err = boot_request_upgrade(BOOT_UPGRADE_TEST);
	if (err != 0) {
		return err;
	}
	printk("upgrade scheduled\n");
	return 0;
}

int ota_write(const uint8_t *data, size_t len)
{
	int err = -EPERM;

	if (job.active) {
		if (data == NULL && len != 0U) {
			err = -EINVAL;
		} else if (len > job.announced_len - job.accepted_len) {
			err = -EFBIG;
		} else {
			err = flash_img_buffered_write(&job.sink, data, len, false);
		}

		if (err == 0) {
			job.accepted_len += len;
		} else {
			job.active = false;
		}
	}
	return err;
}

int ota_begin(size_t image_size, const uint8_t sha256[32])
{
	int err;

	job.active = false;

	if (sha256 == NULL || image_size == 0U) {
		return -EINVAL;
	}
	if (image_size > DFU_AREA_SIZE) {
		return -EFBIG;
	}

	/* Without CONFIG_IMG_ERASE_PROGRESSIVELY flash_img writes to the
	 * slot as it is, so clear the previous contents first.
	 */
	err = boot_erase_img_bank(DFU_AREA);
	if (err != 0) {
		return err;
	}
	err = flash_img_init_id(&job.sink, DFU_AREA);
	if (err != 0) {
		return err;
	}

	memcpy(job.want_sha, sha256, sizeof(job.want_sha));
	job.announced_len = image_size;
	job.accepted_len = 0U;
	job.active = true;
	return 0;
}

int main(void)
{
	printk("ota receiver ready\n");
	return 0;
}
