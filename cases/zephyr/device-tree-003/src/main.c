#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/sys/printk.h>

#define ENV_NODE DT_INST(0, bosch_bme280)

BUILD_ASSERT(DT_ON_BUS(ENV_NODE, spi), "the BME280 must sit on an SPI bus");
BUILD_ASSERT(DT_REG_ADDR(ENV_NODE) == 1, "the BME280 uses chip select 1");

static const struct device *const sensor = DEVICE_DT_GET(ENV_NODE);

int main(void)
{
	printk("environment sensor node: %s\n", sensor->name);
	return 0;
}
