#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/i2c.h>
#include <zephyr/sys/printk.h>

#define TMP117_REG_TEMP      0x00
#define TMP117_REG_DEVICE_ID 0x0F
#define TMP117_DID_MASK      0x0FFF
#define TMP117_DID           0x0117

static const struct i2c_dt_spec tmp117 = I2C_DT_SPEC_GET(DT_NODELABEL(tmp117));

static int tmp117_read_reg(uint8_t reg, uint16_t *val)
{
	uint8_t buf[2];
	int err;

	err = i2c_write_read_dt(&tmp117, &reg, sizeof(reg), buf, sizeof(buf));
	if (err < 0) {
		return err;
	}

	*val = ((uint16_t)buf[0] << 8) | buf[1];
	return 0;
}

int main(void)
{
	uint16_t id;
	int err;

	if (!i2c_is_ready_dt(&tmp117)) {
		printk("i2c bus %s not ready\n", tmp117.bus->name);
		return -ENODEV;
	}

	err = tmp117_read_reg(TMP117_REG_DEVICE_ID, &id);
	if (err < 0) {
		printk("device id read failed: %d\n", err);
		return err;
	}
	if ((id & TMP117_DID_MASK) != TMP117_DID) {
		printk("unexpected device id 0x%04x\n", id);
		return -ENODEV;
	}

	printk("tmp117 ready\n");

	while (1) {
		uint16_t raw;

		err = tmp117_read_reg(TMP117_REG_TEMP, &raw);
		if (err < 0) {
			printk("temperature read failed: %d\n", err);
		} else {
			int32_t milli_c = ((int32_t)(int16_t)raw * 78125) / 10000;

			printk("temp=%d mC\n", milli_c);
		}
		k_sleep(K_SECONDS(1));
	}
	return 0;
}
