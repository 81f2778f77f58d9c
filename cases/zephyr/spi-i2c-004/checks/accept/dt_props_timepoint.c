#include <string.h>
#include <zephyr/kernel.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/i2c.h>
#include <zephyr/sys/byteorder.h>
#include <zephyr/sys/util.h>

#define EE_NODE       DT_NODELABEL(eeprom0)
#define EE_BYTES      DT_PROP(EE_NODE, size)
#define EE_PAGE       DT_PROP(EE_NODE, pagesize)
#define EE_BUSY_MS    6

static const struct i2c_dt_spec ee = I2C_DT_SPEC_GET(EE_NODE);

/* Address-only write: ACKed once the internal programming cycle is over. */
static int ee_ready(uint16_t where)
{
	k_timepoint_t limit = sys_timepoint_calc(K_MSEC(EE_BUSY_MS));
	uint8_t probe[2];

	sys_put_be16(where, probe);
	for (;;) {
		if (i2c_write_dt(&ee, probe, sizeof(probe)) == 0) {
			return 0;
		}
		if (sys_timepoint_expired(limit)) {
			return -ETIMEDOUT;
		}
		k_usleep(250);
	}
}

int eeprom_write(uint16_t offset, const uint8_t *data, size_t len)
{
	uint8_t frame[2 + EE_PAGE];
	struct i2c_msg msg;
	int rc;

	if ((size_t)offset + len > EE_BYTES) {
		return -EINVAL;
	}

	while (len != 0U) {
		size_t n = MIN(len, EE_PAGE - (offset & (EE_PAGE - 1)));

		sys_put_be16(offset, frame);
		memcpy(frame + 2, data, n);

		msg.buf = frame;
		msg.len = 2 + n;
		msg.flags = I2C_MSG_WRITE | I2C_MSG_STOP;
		rc = i2c_transfer_dt(&ee, &msg, 1);
		if (rc != 0) {
			return rc;
		}

		rc = ee_ready(offset);
		if (rc != 0) {
			return rc;
		}

		offset += n;
		data += n;
		len -= n;
	}
	return 0;
}

int eeprom_read(uint16_t offset, uint8_t *data, size_t len)
{
	uint8_t where[2];
	struct i2c_msg msgs[2];

	if ((size_t)offset + len > EE_BYTES) {
		return -EINVAL;
	}
	sys_put_be16(offset, where);

	msgs[0].buf = where;
	msgs[0].len = sizeof(where);
	msgs[0].flags = I2C_MSG_WRITE;
	msgs[1].buf = data;
	msgs[1].len = len;
	msgs[1].flags = I2C_MSG_RESTART | I2C_MSG_READ | I2C_MSG_STOP;

	return i2c_transfer_dt(&ee, msgs, 2);
}

static uint8_t sent[100];
static uint8_t got[100];

int main(void)
{
	int rc;

	if (!device_is_ready(ee.bus)) {
		printk("EEPROM bus not ready\n");
		return -ENODEV;
	}

	for (int i = 0; i < (int)sizeof(sent); i++) {
		sent[i] = (uint8_t)(0xA5 ^ i);
	}

	rc = eeprom_write(500, sent, sizeof(sent));
	if (rc != 0) {
		printk("write error %d\n", rc);
		return rc;
	}
	rc = eeprom_read(500, got, sizeof(got));
	if (rc != 0) {
		printk("read error %d\n", rc);
		return rc;
	}
	for (int i = 0; i < (int)sizeof(sent); i++) {
		if (got[i] != sent[i]) {
			printk("eeprom verify failed\n");
			return -EIO;
		}
	}
	printk("eeprom verify ok\n");
	return 0;
}
