/* defect: the return code of the periodic temperature read is ignored, so a failed transfer still prints a temp= line from stale/uninitialised buffer data.
 * breaks: "A failed read is printed with its error code and produces no `temp=` line; the loop continues."
 * must_fail: i2c_transfer_results_checked
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

static const struct i2c_dt_spec tmp117 = I2C_DT_SPEC_GET(TMP117_NODE);

int main(void)
{
	uint8_t reg;
	uint8_t buf[2] = {0};
	uint16_t id;
	int ret;

	if (!i2c_is_ready_dt(&tmp117)) {
		printk("tmp117: I2C bus not ready\n");
		return -ENODEV;
	}

	reg = TMP117_REG_DEVICE_ID;
	ret = i2c_write_read_dt(&tmp117, &reg, 1, buf, sizeof(buf));
	if (ret < 0) {
		printk("tmp117: device ID read failed (%d)\n", ret);
		return ret;
	}

	id = ((uint16_t)buf[0] << 8) | buf[1];
	if ((id & 0x0FFF) != 0x117) {
		printk("tmp117: bad device ID 0x%04x\n", id);
		return -ENODEV;
	}

	printk("tmp117 ready\n");

	while (1) {
		int16_t raw;
		int32_t milli_c;

		reg = TMP117_REG_TEMP;
		ret = i2c_write_read_dt(&tmp117, &reg, 1, buf, sizeof(buf));
		if (ret < 0) {
			printk("tmp117: temperature read failed (%d)\n", ret);
		}

		raw = (int16_t)(((uint16_t)buf[0] << 8) | buf[1]);
		milli_c = ((int32_t)raw * 125) / 16;
		printk("temp=%d mC\n", (int)milli_c);

		k_sleep(K_SECONDS(1));
	}

	return 0;
}
