#include <zephyr/kernel.h>
#include <zephyr/fs/fs.h>
#include <zephyr/fs/littlefs.h>
#include <zephyr/storage/flash_map.h>

FS_LITTLEFS_DECLARE_DEFAULT_CONFIG(cfg);

static struct fs_mount_t mnt = {
	.type = FS_LITTLEFS,
	.fs_data = &cfg,
	.storage_dev = (void *)FIXED_PARTITION_ID(storage_partition),
	.mnt_point = "/lfs",
};

int main(void)
{
	const char line[] = "boot ok\n";
	struct fs_file_t f;
	int err;

	err = fs_mount(&mnt);
	if (err != 0) {
		printk("fs_mount: %d\n", err);
		return err;
	}

	fs_file_t_init(&f);
	err = fs_open(&f, "/lfs/boot.log", FS_O_CREATE | FS_O_RDWR);
	if (err != 0) {
		printk("fs_open: %d\n", err);
		goto unmount;
	}

	err = fs_seek(&f, 0, FS_SEEK_END);
	if (err != 0) {
		goto close;
	}

	ssize_t n = fs_write(&f, line, sizeof(line) - 1);
	if (n < 0) {
		err = (int)n;
		goto close;
	} else if (n < (ssize_t)(sizeof(line) - 1)) {
		err = -ENOSPC;
		goto close;
	}

	err = fs_sync(&f);

close:
	{
		int cerr = fs_close(&f);

		if (err == 0) {
			err = cerr;
		}
	}
unmount:
	fs_unmount(&mnt);
	if (err != 0) {
		printk("write failed: %d\n", err);
		return err;
	}
	printk("log record written\n");
	return 0;
}
