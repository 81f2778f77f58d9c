/*
 * Raw I2C driver for a 24C32 EEPROM (4 KiB, 32-byte pages, 16-bit
 * big-endian word address) plus a write/read-back self test.
 *
 * Write completion is detected by ACK polling: the chip does not
 * acknowledge its address while the internal write cycle runs. The poll
 * re-sends only the 2-byte word address (a "dummy write" that starts no
 * write cycle), so it works on any I2C controller driver, and it is
 * bounded by a timepoint so an absent chip yields -ETIMEDOUT.
 */

#include <zephyr/kernel.h>
#include <zephyr/drivers/i2c.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>
#include <zephyr/sys_clock.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define EEPROM_SIZE         4096
#define EEPROM_PAGE         32
/* tWR is at most 5 ms; the margin covers the bus time of the polls. */
#define WRITE_CYCLE_TIMEOUT K_MSEC(10)

static const struct i2c_dt_spec ee = I2C_DT_SPEC_GET(DT_NODELABEL(eeprom0));

static inline void put_addr(uint8_t out[2], uint16_t addr)
{
	out[0] = addr >> 8;     /* MSB first */
	out[1] = addr & 0xff;
}

static int ack_poll(uint16_t addr)
{
	k_timepoint_t end = sys_timepoint_calc(WRITE_CYCLE_TIMEOUT);
	uint8_t a[2];
	int ret;

	put_addr(a, addr);

	for (;;) {
		ret = i2c_write_dt(&ee, a, sizeof(a));
		if (ret == 0) {
			return 0;
		}
		if (sys_timepoint_expired(end)) {
			return -ETIMEDOUT;
		}
		k_busy_wait(50);
	}
}

int eeprom_write(uint16_t offset, const uint8_t *data, size_t len)
{
	uint8_t frame[2 + EEPROM_PAGE];
	size_t done = 0;

	if (data == NULL || offset >= EEPROM_SIZE ||
	    len > (size_t)(EEPROM_SIZE - offset)) {
		return -EINVAL;
	}

	while (done < len) {
		uint16_t addr = offset + done;
		size_t n = EEPROM_PAGE - (addr % EEPROM_PAGE);
		int ret;

		if (n > len - done) {
			n = len - done;
		}

		put_addr(frame, addr);
		memcpy(&frame[2], &data[done], n);

		/* Address and data in one transaction: one page write. */
		ret = i2c_write_dt(&ee, frame, 2 + n);
		if (ret != 0) {
			return ret < 0 ? ret : -EIO;
		}

		ret = ack_poll(addr);
		if (ret != 0) {
			return ret;
		}

		done += n;
	}

	return 0;
}

int eeprom_read(uint16_t offset, uint8_t *data, size_t len)
{
	size_t done = 0;

	if (data == NULL || offset >= EEPROM_SIZE ||
	    len > (size_t)(EEPROM_SIZE - offset)) {
		return -EINVAL;
	}

	/* Read in page-sized pieces to stay within any controller's limits. */
	while (done < len) {
		uint16_t addr = offset + done;
		size_t n = MIN(len - done, (size_t)EEPROM_PAGE);
		uint8_t a[2];
		struct i2c_msg msgs[2];
		int ret;

		put_addr(a, addr);

		msgs[0].buf = a;
		msgs[0].len = sizeof(a);
		msgs[0].flags = I2C_MSG_WRITE;

		msgs[1].buf = &data[done];
		msgs[1].len = n;
		msgs[1].flags = I2C_MSG_READ | I2C_MSG_RESTART | I2C_MSG_STOP;

		ret = i2c_transfer_dt(&ee, msgs, 2);
		if (ret != 0) {
			return ret < 0 ? ret : -EIO;
		}

		done += n;
	}

	return 0;
}

int main(void)
{
	uint8_t record[100];
	uint8_t check[100];
	int err;

	if (!i2c_is_ready_dt(&ee)) {
		printk("I2C bus not ready: %d\n", -ENODEV);
		return -ENODEV;
	}

	for (int i = 0; i < (int)sizeof(record); i++) {
		record[i] = (uint8_t)(0xA5 ^ i);
	}

	err = eeprom_write(500, record, sizeof(record));
	if (err != 0) {
		printk("eeprom_write(500) failed: %d\n", err);
		return err;
	}

	memset(check, 0, sizeof(check));
	err = eeprom_read(500, check, sizeof(check));
	if (err != 0) {
		printk("eeprom_read(500) failed: %d\n", err);
		return err;
	}

	if (memcmp(record, check, sizeof(record)) != 0) {
		printk("eeprom verify failed\n");
		return -EIO;
	}

	printk("eeprom verify ok\n");
	return 0;
}
