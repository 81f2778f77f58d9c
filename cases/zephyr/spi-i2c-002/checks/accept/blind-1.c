/*
 * TMP117 direct register access over I2C (Zephyr 4.1.0).
 */
#include <errno.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/i2c.h>
#include <zephyr/sys/printk.h>

#define TMP117_NODE DT_NODELABEL(tmp117)

#define TMP117_REG_TEMP      0x00
#define TMP117_REG_DEVICE_ID 0x0F
#define TMP117_DEVICE_ID     0x117
#define TMP117_ID_MASK       0x0FFF

static const struct i2c_dt_spec tmp117 = I2C_DT_SPEC_GET(TMP117_NODE);

/* Read one 16-bit register, MSB first. */
static int tmp117_read_reg(uint8_t reg, uint16_t *val)
{
	uint8_t buf[2];
	int ret;

	ret = i2c_write_read_dt(&tmp117, &reg, sizeof(reg), buf, sizeof(buf));
	if (ret < 0) {
		return ret;
	}

	*val = ((uint16_t)buf[0] << 8) | buf[1];
	return 0;
}

/* 7.8125 m°C per LSB == 125/16 m°C per LSB. */
static int32_t tmp117_raw_to_mc(uint16_t raw)
{
	int16_t sraw = (int16_t)raw;

	return ((int32_t)sraw * 125) / 16;
}

int main(void)
{
	uint16_t id;
	uint16_t raw;
	int ret;

	if (!i2c_is_ready_dt(&tmp117)) {
		printk("error: I2C bus %s not ready\n", tmp117.bus->name);
		return -ENODEV;
	}

	ret = tmp117_read_reg(TMP117_REG_DEVICE_ID, &id);
	if (ret < 0) {
		printk("error: cannot read TMP117 device ID at 0x%02x (%d)\n",
		       tmp117.addr, ret);
		return ret;
	}

	if ((id & TMP117_ID_MASK) != TMP117_DEVICE_ID) {
		printk("error: unexpected device ID 0x%04x (not a TMP117)\n", id);
		return -ENODEV;
	}

	printk("tmp117 ready\n");

	while (1) {
		ret = tmp117_read_reg(TMP117_REG_TEMP, &raw);
		if (ret < 0) {
			printk("error: temperature read failed (%d)\n", ret);
		} else {
			printk("temp=%d mC\n", (int)tmp117_raw_to_mc(raw));
		}

		k_sleep(K_SECONDS(1));
	}

	return 0;
}
