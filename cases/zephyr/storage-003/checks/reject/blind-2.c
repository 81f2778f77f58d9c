/* defect: only negative fs_write() results are treated as errors; a short write that stores fewer bytes than requested is accepted as success.
 * breaks: "A write that stores fewer bytes than requested counts as a failure (report `-ENOSPC`)."
 * must_fail: short_write_detected
 */
#include <errno.h>
#include <stddef.h>

#include <zephyr/kernel.h>
#include <zephyr/devicetree.h>
#include <zephyr/fs/fs.h>
#include <zephyr/fs/littlefs.h>
#include <zephyr/storage/flash_map.h>
#include <zephyr/sys/printk.h>

#define STORAGE_NODE DT_NODELABEL(storage_partition)

FS_LITTLEFS_DECLARE_DEFAULT_CONFIG(lfs_data);

static struct fs_mount_t mp = {
	.type = FS_LITTLEFS,
	.fs_data = &lfs_data,
	.storage_dev = (void *)DT_FIXED_PARTITION_ID(STORAGE_NODE),
	.mnt_point = "/lfs",
};

static const char line[] = "boot ok\n";

static int append_line(struct fs_file_t *f)
{
	ssize_t n;
	int err;

	err = fs_seek(f, 0, FS_SEEK_END);
	if (err < 0) {
		printk("seek to end failed: %d\n", err);
		return err;
	}

	n = fs_write(f, line, sizeof(line) - 1);
	if (n < 0) {
		printk("write failed: %d\n", (int)n);
		return (int)n;
	}

	err = fs_sync(f);
	if (err < 0) {
		printk("sync failed: %d\n", err);
		return err;
	}

	return 0;
}

static int write_log(void)
{
	struct fs_file_t f;
	int err;
	int cerr;

	fs_file_t_init(&f);

	err = fs_open(&f, "/lfs/boot.log", FS_O_CREATE | FS_O_RDWR);
	if (err < 0) {
		printk("open /lfs/boot.log failed: %d\n", err);
		return err;
	}

	err = append_line(&f);

	cerr = fs_close(&f);
	if (cerr < 0) {
		printk("close failed: %d\n", cerr);
		if (err == 0) {
			err = cerr;
		}
	}

	return err;
}

int main(void)
{
	int err;
	int uerr;

	err = fs_mount(&mp);
	if (err < 0) {
		printk("mount /lfs failed: %d\n", err);
		return err;
	}

	err = write_log();

	uerr = fs_unmount(&mp);
	if (uerr < 0) {
		printk("unmount failed: %d\n", uerr);
		if (err == 0) {
			err = uerr;
		}
	}

	if (err < 0) {
		printk("error: log record not written (%d)\n", err);
		return err;
	}

	printk("log record written\n");
	return 0;
}
