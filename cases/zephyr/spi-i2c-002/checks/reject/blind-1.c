/* defect: the two register bytes are assembled least-significant-byte first, so both the ID check and the temperature use a byte-swapped value.
 * breaks: "all registers are 16 bits, transferred most significant byte first after writing the 8-bit register address."
 * must_fail: big_endian_register_assembly
 */
#include <errno.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/i2c.h>
#include <zephyr/sys/byteorder.h>
#include <zephyr/sys/printk.h>

#define TMP117_NODE DT_NODELABEL(tmp117)

#define TMP117_REG_TEMP      0x00
#define TMP117_REG_DEVICE_ID 0x0F
#define TMP117_DEVICE_ID     0x117
#define TMP117_ID_MASK       0x0FFF

static const struct i2c_dt_spec tmp117 = I2C_DT_SPEC_GET(TMP117_NODE);

static int tmp117_read_reg(uint8_t reg, uint16_t *val)
{
	uint8_t buf[2];
	int ret;

	ret = i2c_burst_read_dt(&tmp117, reg, buf, sizeof(buf));
	if (ret < 0) {
		return ret;
	}

	*val = sys_get_le16(buf);
	return 0;
}

static int32_t tmp117_raw_to_mc(uint16_t raw)
{
	return ((int32_t)(int16_t)raw * 125) / 16;
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
		printk("error: cannot read TMP117 device ID (%d)\n", ret);
		return ret;
	}

	if ((id & TMP117_ID_MASK) != TMP117_DEVICE_ID) {
		printk("error: unexpected device ID 0x%04x\n", id);
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
