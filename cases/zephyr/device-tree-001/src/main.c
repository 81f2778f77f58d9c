#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/sys/printk.h>

#define TEMP_NODE DT_ALIAS(ambient_temp0)

BUILD_ASSERT(DT_NODE_HAS_COMPAT(TEMP_NODE, jedec_jc_42_4_temp), "ambient-temp0 is not a JC-42.4 sensor");
BUILD_ASSERT(DT_REG_ADDR(TEMP_NODE) == 0x1a, "sensor address must be 0x1a");

static const struct device *const sensor = DEVICE_DT_GET(TEMP_NODE);

int main(void)
{
	printk("temperature sensor node: %s\n", sensor->name);
	return 0;
}
