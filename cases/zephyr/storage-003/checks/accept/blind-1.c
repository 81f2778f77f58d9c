/*
 * Append one record to /lfs/boot.log on a littlefs file system mounted on
 * the storage_partition fixed partition.
 */
#include <errno.h>
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/fs/fs.h>
#include <zephyr/fs/littlefs.h>
#include <zephyr/storage/flash_map.h>
#include <zephyr/sys/printk.h>

#define MOUNT_POINT "/lfs"
#define LOG_PATH    MOUNT_POINT "/boot.log"

FS_LITTLEFS_DECLARE_DEFAULT_CONFIG(lfs_storage);

static struct fs_mount_t lfs_mnt = {
	.type = FS_LITTLEFS,
	.fs_data = &lfs_storage,
	.storage_dev = (void *)FIXED_PARTITION_ID(storage_partition),
	.mnt_point = MOUNT_POINT,
};

int main(void)
{
	static const char record[] = "boot ok\n";
	const size_t record_len = sizeof(record) - 1;
	struct fs_file_t file;
	ssize_t written;
	int rc;
	int rc2;

	rc = fs_mount(&lfs_mnt);
	if (rc < 0) {
		printk("error: mount %s failed: %d\n", MOUNT_POINT, rc);
		return rc;
	}

	fs_file_t_init(&file);

	rc = fs_open(&file, LOG_PATH, FS_O_CREATE | FS_O_RDWR);
	if (rc < 0) {
		printk("error: open %s failed: %d\n", LOG_PATH, rc);
		goto unmount;
	}

	rc = fs_seek(&file, 0, FS_SEEK_END);
	if (rc < 0) {
		printk("error: seek failed: %d\n", rc);
		goto close;
	}

	written = fs_write(&file, record, record_len);
	if (written < 0) {
		rc = (int)written;
		printk("error: write failed: %d\n", rc);
		goto close;
	}
	if ((size_t)written != record_len) {
		rc = -ENOSPC;
		printk("error: short write (%d of %u bytes)\n", (int)written,
		       (unsigned int)record_len);
		goto close;
	}

	rc = fs_sync(&file);
	if (rc < 0) {
		printk("error: sync failed: %d\n", rc);
	}

close:
	rc2 = fs_close(&file);
	if (rc2 < 0) {
		printk("error: close failed: %d\n", rc2);
		if (rc == 0) {
			rc = rc2;
		}
	}

unmount:
	rc2 = fs_unmount(&lfs_mnt);
	if (rc2 < 0) {
		printk("error: unmount failed: %d\n", rc2);
		if (rc == 0) {
			rc = rc2;
		}
	}

	if (rc < 0) {
		return rc;
	}

	printk("log record written\n");
	return 0;
}
