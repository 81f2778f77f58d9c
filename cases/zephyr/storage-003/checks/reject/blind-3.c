/* defect: when the seek, write or sync fails, main returns straight away without closing the open file or unmounting the file system.
 * breaks: "Never leak the open file or leave the file system mounted, whatever fails after the mount."
 * must_fail: file_closed_on_all_paths, filesystem_unmounted
 */
#include <errno.h>

#include <zephyr/kernel.h>
#include <zephyr/fs/fs.h>
#include <zephyr/fs/littlefs.h>
#include <zephyr/storage/flash_map.h>
#include <zephyr/sys/printk.h>

FS_LITTLEFS_DECLARE_DEFAULT_CONFIG(storage);

static struct fs_mount_t lfs_mnt = {
	.type = FS_LITTLEFS,
	.fs_data = &storage,
	.storage_dev = (void *)FIXED_PARTITION_ID(storage_partition),
	.mnt_point = "/lfs",
};

int main(void)
{
	const char msg[] = "boot ok\n";
	struct fs_file_t file;
	ssize_t n;
	int rc;

	rc = fs_mount(&lfs_mnt);
	if (rc < 0) {
		printk("mount failed: %d\n", rc);
		return rc;
	}

	fs_file_t_init(&file);
	rc = fs_open(&file, "/lfs/boot.log", FS_O_CREATE | FS_O_RDWR);
	if (rc < 0) {
		printk("open failed: %d\n", rc);
		fs_unmount(&lfs_mnt);
		return rc;
	}

	rc = fs_seek(&file, 0, FS_SEEK_END);
	if (rc < 0) {
		printk("seek failed: %d\n", rc);
		return rc;
	}

	n = fs_write(&file, msg, sizeof(msg) - 1);
	if (n < 0) {
		printk("write failed: %d\n", (int)n);
		return (int)n;
	}
	if (n != (ssize_t)(sizeof(msg) - 1)) {
		printk("short write: %d\n", (int)n);
		return -ENOSPC;
	}

	rc = fs_sync(&file);
	if (rc < 0) {
		printk("sync failed: %d\n", rc);
		return rc;
	}

	rc = fs_close(&file);
	if (rc < 0) {
		printk("close failed: %d\n", rc);
		fs_unmount(&lfs_mnt);
		return rc;
	}

	rc = fs_unmount(&lfs_mnt);
	if (rc < 0) {
		printk("unmount failed: %d\n", rc);
		return rc;
	}

	printk("log record written\n");
	return 0;
}
