#include <errno.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/i2c.h>
#include <zephyr/sys/byteorder.h>
#include <zephyr/sys/printk.h>

#if !DT_NODE_HAS_STATUS(DT_NODELABEL(tmp117), okay)
#error "devicetree node with label tmp117 is missing or disabled"
#endif

static const struct i2c_dt_spec tmp117_i2c = I2C_DT_SPEC_GET(DT_NODELABEL(tmp117));

enum tmp117_reg {
	TMP117_TEMP_RESULT = 0x00,
	TMP117_DEVICE_ID = 0x0F,
};

/*
 * Write the register pointer, then repeated-start and read two bytes.
 * Returns the register value (0..0xFFFF) or a negative errno.
 */
static int32_t tmp117_get(enum tmp117_reg reg)
{
	uint8_t addr = (uint8_t)reg;
	uint8_t data[2];
	struct i2c_msg msgs[2] = {
		{
			.buf = &addr,
			.len = 1,
			.flags = I2C_MSG_WRITE,
		},
		{
			.buf = data,
			.len = sizeof(data),
			.flags = I2C_MSG_RESTART | I2C_MSG_READ | I2C_MSG_STOP,
		},
	};
	int err = i2c_transfer_dt(&tmp117_i2c, msgs, ARRAY_SIZE(msgs));

	if (err != 0) {
		return err;
	}
	return sys_get_be16(data);
}

int main(void)
{
	int32_t v;
	int64_t next;

	if (!device_is_ready(tmp117_i2c.bus)) {
		printk("tmp117: bus %s is not ready\n", tmp117_i2c.bus->name);
		return -ENODEV;
	}

	v = tmp117_get(TMP117_DEVICE_ID);
	if (v < 0) {
		printk("tmp117: device unreachable, err %d\n", (int)v);
		return (int)v;
	}
	if ((v & 0x0FFF) != 0x117) {
		printk("tmp117: wrong device id 0x%04x\n", (unsigned int)v);
		return -EIO;
	}

	printk("tmp117 ready\n");

	next = k_uptime_get();
	for (;;) {
		v = tmp117_get(TMP117_TEMP_RESULT);
		if (v < 0) {
			printk("tmp117: read error %d\n", (int)v);
		} else {
			/* two's complement 16-bit, 7.8125 mC/LSB = 15625/2000 */
			int32_t raw = (int16_t)(uint16_t)v;
			int32_t milli_c = (raw * 15625) / 2000;

			printk("temp=%d mC\n", (int)milli_c);
		}

		next += 1000;
		int64_t now = k_uptime_get();

		if (next > now) {
			k_msleep((int32_t)(next - now));
		} else {
			next = now;
		}
	}

	return 0;
}
