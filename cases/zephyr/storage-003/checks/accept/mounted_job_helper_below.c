#include <errno.h>
#include <sys/types.h>
#include <zephyr/kernel.h>
#include <zephyr/fs/fs.h>
#include <zephyr/fs/littlefs.h>
#include <zephyr/storage/flash_map.h>
#include <zephyr/sys/printk.h>

FS_LITTLEFS_DECLARE_DEFAULT_CONFIG(bootlog_fs);

static struct fs_mount_t bootlog_mp = {
	.type = FS_LITTLEFS,
	.mnt_point = "/lfs",
	.fs_data = &bootlog_fs,
	.storage_dev = (void *)FIXED_PARTITION_ID(storage_partition),
};

typedef int (*mounted_job_t)(void);

static int run_on_mounted_lfs(mounted_job_t job);
static int append_boot_entry(void);
static int put_all_and_flush(struct fs_file_t *fp, const char *data, size_t size);

int main(void)
{
	int status = run_on_mounted_lfs(append_boot_entry);

	if (status != 0) {
		printk("boot log update failed: %d\n", status);
		return status;
	}

	printk("log record written\n");
	return 0;
}

/* Mounts the file system, runs job and always unmounts again. The job's
 * error wins over an unmount error.
 */
static int run_on_mounted_lfs(mounted_job_t job)
{
	int status = fs_mount(&bootlog_mp);
	int umount_status;

	if (status != 0) {
		printk("mounting %s failed: %d\n", bootlog_mp.mnt_point, status);
		return status;
	}

	status = job();

	umount_status = fs_unmount(&bootlog_mp);
	if (umount_status != 0) {
		printk("unmounting %s failed: %d\n", bootlog_mp.mnt_point, umount_status);
		if (status == 0) {
			status = umount_status;
		}
	}
	return status;
}

static int append_boot_entry(void)
{
	static const char entry[] = "boot ok\n";
	struct fs_file_t log_file;
	int status;

	fs_file_t_init(&log_file);
	status = fs_open(&log_file, "/lfs/boot.log",
			 FS_O_CREATE | FS_O_READ | FS_O_WRITE | FS_O_APPEND);
	if (status == 0) {
		int close_status;

		status = put_all_and_flush(&log_file, entry, sizeof(entry) - 1);
		close_status = fs_close(&log_file);
		if (status == 0) {
			status = close_status;
		}
	} else {
		printk("opening boot.log failed: %d\n", status);
	}
	return status;
}

/* The whole buffer must reach the file and be committed to flash. */
static int put_all_and_flush(struct fs_file_t *fp, const char *data, size_t size)
{
	ssize_t put = fs_write(fp, data, size);

	if (put < 0) {
		return (int)put;
	}
	if ((size_t)put < size) {
		return -ENOSPC;
	}
	return fs_sync(fp);
}
