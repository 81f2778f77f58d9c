#include <errno.h>
#include <string.h>
#include <zephyr/kernel.h>
#include <zephyr/fs/fs.h>
#include <zephyr/fs/littlefs.h>
#include <zephyr/storage/flash_map.h>
#include <zephyr/sys/printk.h>

#define LOG_PATH "/lfs/boot.log"

FS_LITTLEFS_DECLARE_DEFAULT_CONFIG(lfs_storage);

static struct fs_mount_t lfs_mnt = {
	.type = FS_LITTLEFS,
	.fs_data = &lfs_storage,
	.storage_dev = (void *)FIXED_PARTITION_ID(storage_partition),
	.mnt_point = "/lfs",
};

static int append_record(const char *path, const char *record, size_t len)
{
	struct fs_file_t file;
	ssize_t written;
	int rc;

	fs_file_t_init(&file);
	rc = fs_open(&file, path, FS_O_CREATE | FS_O_RDWR | FS_O_APPEND);
	if (rc < 0) {
		return rc;
	}

	written = fs_write(&file, record, len);
	if (written < 0) {
		fs_close(&file);
		return (int)written;
	}
	if ((size_t)written != len) {
		fs_close(&file);
		return -ENOSPC;
	}

	rc = fs_sync(&file);
	if (rc < 0) {
		fs_close(&file);
		return rc;
	}

	return fs_close(&file);
}

int main(void)
{
	static const char record[] = "boot ok\n";
	int rc;
	int unmount_rc;

	rc = fs_mount(&lfs_mnt);
	if (rc < 0) {
		printk("mount %s failed: %d\n", lfs_mnt.mnt_point, rc);
		return rc;
	}

	rc = append_record(LOG_PATH, record, strlen(record));
	unmount_rc = fs_unmount(&lfs_mnt);

	if (rc < 0) {
		printk("append to %s failed: %d\n", LOG_PATH, rc);
		return rc;
	}
	if (unmount_rc < 0) {
		printk("unmount failed: %d\n", unmount_rc);
		return unmount_rc;
	}

	printk("log record written\n");
	return 0;
}
