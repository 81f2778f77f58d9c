#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <zephyr/kernel.h>
#include <zephyr/dfu/flash_img.h>
#include <zephyr/dfu/mcuboot.h>
#include <zephyr/storage/flash_map.h>
#include <zephyr/sys/printk.h>

#define SHA256_LEN 32
#define UPDATE_SLOT_ID FIXED_PARTITION_ID(slot1_partition)

static struct flash_img_context img_ctx;
static uint8_t expected_hash[SHA256_LEN];
static size_t expected_size;
static size_t received;
static bool in_progress;

int ota_begin(size_t image_size, const uint8_t sha256[32])
{
	int ret;

	in_progress = false;
	if (image_size == 0U || sha256 == NULL) {
		return -EINVAL;
	}

	ret = flash_img_init(&img_ctx);
	if (ret < 0) {
		return ret;
	}

	memcpy(expected_hash, sha256, SHA256_LEN);
	expected_size = image_size;
	received = 0;
	in_progress = true;
	return 0;
}

int ota_write(const uint8_t *data, size_t len)
{
	int ret;

	if (!in_progress) {
		return -EPERM;
	}
	if (len > expected_size - received) {
		in_progress = false;
		return -EFBIG;
	}

	ret = flash_img_buffered_write(&img_ctx, data, len, false);
	if (ret < 0) {
		in_progress = false;
		return ret;
	}

	received += len;
	return 0;
}

int ota_finish(void)
{
	struct flash_img_check fic = {
		.match = expected_hash,
		.clen = expected_size,
	};
	int ret;

	if (!in_progress) {
		return -EPERM;
	}
	in_progress = false;

	ret = flash_img_buffered_write(&img_ctx, NULL, 0, true);
	if (ret < 0) {
		return ret;
	}

	if (flash_img_bytes_written(&img_ctx) != expected_size) {
		return -EIO;
	}

	ret = flash_img_check(&img_ctx, &fic, UPDATE_SLOT_ID);
	if (ret < 0) {
		return ret;
	}

	ret = boot_request_upgrade(BOOT_UPGRADE_TEST);
	if (ret < 0) {
		return ret;
	}

	printk("upgrade scheduled\n");
	return 0;
}

int main(void)
{
	printk("ota receiver ready\n");
	return 0;
}
