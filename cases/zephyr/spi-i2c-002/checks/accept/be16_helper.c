#include <zephyr/kernel.h>
#include <zephyr/drivers/i2c.h>
#include <zephyr/sys/byteorder.h>

static const struct i2c_dt_spec dev = I2C_DT_SPEC_GET(DT_NODELABEL(tmp117));

int main(void)
{
	uint8_t reg = 0x0F;
	uint8_t rx[2];
	int ret;

	if (!i2c_is_ready_dt(&dev)) {
		return -ENODEV;
	}
	ret = i2c_write_read_dt(&dev, &reg, 1, rx, 2);
	if (ret) {
		printk("id read error %d\n", ret);
		return ret;
	}
	if ((sys_get_be16(rx) & 0xFFF) != 0x117) {
		printk("not a tmp117\n");
		return -EIO;
	}
	printk("tmp117 ready\n");

	for (;;) {
		reg = 0x00;
		ret = i2c_write_read_dt(&dev, &reg, 1, rx, 2);
		if (ret == 0) {
			int16_t t = (int16_t)sys_get_be16(rx);
			printk("temp=%d mC\n", (int)(t * 78125LL / 10000));
		} else {
			printk("read error %d\n", ret);
		}
		k_msleep(1000);
	}
}
