/* defect: the raw temperature is kept as an unsigned 16-bit value, so sub-zero readings are never sign-extended and print as large positive temperatures.
 * breaks: "Register `0x00` holds the temperature as a two's-complement value with 7.8125 m°C per LSB."
 * must_fail: temperature_sign_extended
 */
#include <errno.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/i2c.h>
#include <zephyr/sys/byteorder.h>
#include <zephyr/sys/printk.h>

#define TMP117_REG_TEMP      0x00
#define TMP117_REG_DEVICE_ID 0x0F

static const struct i2c_dt_spec tmp117 = I2C_DT_SPEC_GET(DT_NODELABEL(tmp117));

static int tmp117_read(uint8_t reg, uint16_t *out)
{
	uint8_t rx[2];
	int err;

	err = i2c_write_read_dt(&tmp117, &reg, sizeof(reg), rx, sizeof(rx));
	if (err) {
		return err;
	}
	*out = sys_get_be16(rx);
	return 0;
}

int main(void)
{
	uint16_t val;
	int err;

	if (!i2c_is_ready_dt(&tmp117)) {
		printk("tmp117: bus %s not ready\n", tmp117.bus->name);
		return -ENODEV;
	}

	err = tmp117_read(TMP117_REG_DEVICE_ID, &val);
	if (err) {
		printk("tmp117: not reachable (%d)\n", err);
		return err;
	}
	if ((val & 0x0FFF) != 0x117) {
		printk("tmp117: device ID 0x%04x is not a TMP117\n", val);
		return -ENODEV;
	}

	printk("tmp117 ready\n");

	for (;;) {
		err = tmp117_read(TMP117_REG_TEMP, &val);
		if (err) {
			printk("tmp117: read failed (%d)\n", err);
		} else {
			int32_t milli_c = ((int32_t)val * 125) / 16;

			printk("temp=%d mC\n", (int)milli_c);
		}
		k_sleep(K_SECONDS(1));
	}

	return 0;
}
