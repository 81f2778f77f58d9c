/*
 * 24C32-class I2C EEPROM accessed directly with the Zephyr I2C API.
 *
 * - 4096 bytes, 32-byte pages, 2-byte big-endian memory address.
 * - Writes are split at page boundaries; each page is one i2c_write_dt()
 *   transaction (address + data in a single buffer).
 * - After each page, the internal write cycle is waited for by ACK polling
 *   (the chip NACKs its address while busy), bounded by a timeout.
 * - ACK polling uses a 1-byte read, which every I2C controller driver
 *   supports (unlike zero-length writes).
 */

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/i2c.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#define EEPROM_NODE            DT_NODELABEL(eeprom0)
#define EEPROM_SIZE            4096U
#define EEPROM_PAGE_SIZE       32U
#define EEPROM_ADDR_LEN        2U
/* Datasheet maximum is 5 ms; allow margin for bus transaction time. */
#define EEPROM_WRITE_TIMEOUT_MS 10
#define EEPROM_POLL_INTERVAL_US 100

#define TEST_OFFSET            500U
#define TEST_LEN               100U

static const struct i2c_dt_spec eeprom = I2C_DT_SPEC_GET(EEPROM_NODE);

static int check_range(uint16_t offset, const void *data, size_t len)
{
	if (data == NULL && len != 0U) {
		return -EINVAL;
	}
	if (offset >= EEPROM_SIZE || len > (size_t)(EEPROM_SIZE - offset)) {
		return -EINVAL;
	}
	return 0;
}

/* Wait until the chip acknowledges its address again (write cycle done). */
static int eeprom_wait_ready(void)
{
	int64_t deadline = k_uptime_get() + EEPROM_WRITE_TIMEOUT_MS;
	uint8_t dummy;
	int ret;

	while (true) {
		ret = i2c_read_dt(&eeprom, &dummy, 1);
		if (ret == 0) {
			return 0;
		}
		if (k_uptime_get() >= deadline) {
			return -ETIMEDOUT;
		}
		k_usleep(EEPROM_POLL_INTERVAL_US);
	}
}

static int eeprom_write_page(uint16_t addr, const uint8_t *data, size_t n)
{
	uint8_t buf[EEPROM_ADDR_LEN + EEPROM_PAGE_SIZE];
	int ret;

	buf[0] = (uint8_t)(addr >> 8);
	buf[1] = (uint8_t)(addr & 0xFFU);
	memcpy(&buf[EEPROM_ADDR_LEN], data, n);

	ret = i2c_write_dt(&eeprom, buf, EEPROM_ADDR_LEN + n);
	if (ret < 0) {
		return ret;
	}

	return eeprom_wait_ready();
}

int eeprom_write(uint16_t offset, const uint8_t *data, size_t len)
{
	int ret = check_range(offset, data, len);

	if (ret < 0) {
		return ret;
	}

	while (len > 0U) {
		size_t room = EEPROM_PAGE_SIZE - (offset % EEPROM_PAGE_SIZE);
		size_t chunk = MIN(len, room);

		ret = eeprom_write_page(offset, data, chunk);
		if (ret < 0) {
			return ret;
		}

		offset += chunk;
		data += chunk;
		len -= chunk;
	}

	return 0;
}

int eeprom_read(uint16_t offset, uint8_t *data, size_t len)
{
	uint8_t addr[EEPROM_ADDR_LEN];
	int ret = check_range(offset, data, len);

	if (ret < 0) {
		return ret;
	}
	if (len == 0U) {
		return 0;
	}

	addr[0] = (uint8_t)(offset >> 8);
	addr[1] = (uint8_t)(offset & 0xFFU);

	return i2c_write_read_dt(&eeprom, addr, sizeof(addr), data, len);
}

int main(void)
{
	static uint8_t record[TEST_LEN];
	static uint8_t readback[TEST_LEN];
	int ret;

	if (!i2c_is_ready_dt(&eeprom)) {
		printk("error: I2C bus %s not ready (%d)\n",
		       eeprom.bus->name, -ENODEV);
		return -ENODEV;
	}

	for (size_t i = 0; i < TEST_LEN; i++) {
		record[i] = (uint8_t)(0xA5 ^ i);
	}

	ret = eeprom_write(TEST_OFFSET, record, sizeof(record));
	if (ret < 0) {
		printk("error: eeprom write failed (%d)\n", ret);
		return ret;
	}

	ret = eeprom_read(TEST_OFFSET, readback, sizeof(readback));
	if (ret < 0) {
		printk("error: eeprom read failed (%d)\n", ret);
		return ret;
	}

	if (memcmp(record, readback, sizeof(record)) != 0) {
		printk("eeprom verify failed\n");
		return -EIO;
	}

	printk("eeprom verify ok\n");
	return 0;
}
