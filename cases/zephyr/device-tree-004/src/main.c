#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/storage/flash_map.h>
#include <zephyr/sys/printk.h>

#define EXT_FLASH_NODE DT_ALIAS(spi_flash0)

BUILD_ASSERT(DT_NODE_HAS_COMPAT(EXT_FLASH_NODE, jedec_spi_nor), "spi-flash0 is not a jedec,spi-nor device");
BUILD_ASSERT(DT_ON_BUS(EXT_FLASH_NODE, spi), "the external flash must sit on an SPI bus");
BUILD_ASSERT(DT_SAME_NODE(DT_MTD_FROM_FIXED_PARTITION(DT_NODELABEL(storage_partition)), EXT_FLASH_NODE),
	     "storage_partition must be on the external flash");
BUILD_ASSERT(FIXED_PARTITION_OFFSET(storage_partition) == 0x100000, "storage starts after the 1 MiB update area");
BUILD_ASSERT(FIXED_PARTITION_SIZE(storage_partition) == 0x6000, "storage is six 4 KiB sectors");
BUILD_ASSERT(FIXED_PARTITION_OFFSET(log_partition) + FIXED_PARTITION_SIZE(log_partition) ==
	     DT_PROP(EXT_FLASH_NODE, size) / 8, "the log runs to the end of the chip");

static const struct device *const ext_flash = DEVICE_DT_GET(EXT_FLASH_NODE);

int main(void)
{
	printk("external flash node: %s\n", ext_flash->name);
	printk("storage partition at 0x%lx, %lu bytes\n", (unsigned long)FIXED_PARTITION_OFFSET(storage_partition),
	       (unsigned long)FIXED_PARTITION_SIZE(storage_partition));
	return 0;
}
