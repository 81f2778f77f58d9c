#include <errno.h>
#include <string.h>
#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/i2c.h>
#include <zephyr/sys/printk.h>

#define EEPROM_SIZE        4096U
#define EEPROM_PAGE_SIZE   32U
#define EEPROM_ADDR_BYTES  2U
#define EEPROM_TWR_MAX_MS  5
#define EEPROM_POLL_US     100

#define TEST_OFFSET        500U
#define TEST_LEN           100U

static const struct i2c_dt_spec eeprom = I2C_DT_SPEC_GET(DT_NODELABEL(eeprom0));

/*
 * While the chip programs a page it does not acknowledge its address, so a
 * one-byte read is retried until it succeeds, for at most the worst-case
 * write cycle time (plus one tick of uptime granularity).
 */
static int eeprom_wait_ready(void)
{
	int64_t deadline = k_uptime_get() + EEPROM_TWR_MAX_MS + 1;
	uint8_t dummy;
	int err;

	do {
		err = i2c_read_dt(&eeprom, &dummy, sizeof(dummy));
		if (err == 0) {
			return 0;
		}
		k_usleep(EEPROM_POLL_US);
	} while (k_uptime_get() < deadline);

	return -ETIMEDOUT;
}

/* One page-bounded write: memory address and data in a single transaction. */
static int eeprom_write_page(uint16_t offset, const uint8_t *data, size_t len)
{
	uint8_t buf[EEPROM_ADDR_BYTES + EEPROM_PAGE_SIZE];
	int err;

	buf[0] = (uint8_t)(offset >> 8);
	buf[1] = (uint8_t)(offset & 0xFF);
	memcpy(&buf[EEPROM_ADDR_BYTES], data, len);

	err = i2c_write_dt(&eeprom, buf, EEPROM_ADDR_BYTES + len);
	if (err < 0) {
		return err;
	}

	return eeprom_wait_ready();
}

int eeprom_write(uint16_t offset, const uint8_t *data, size_t len)
{
	int err;

	if (data == NULL || len > EEPROM_SIZE || offset > EEPROM_SIZE - len) {
		return -EINVAL;
	}

	while (len > 0) {
		size_t chunk = EEPROM_PAGE_SIZE - (offset % EEPROM_PAGE_SIZE);

		if (chunk > len) {
			chunk = len;
		}

		err = eeprom_write_page(offset, data, chunk);
		if (err < 0) {
			return err;
		}

		offset += chunk;
		data += chunk;
		len -= chunk;
	}

	return 0;
}

int eeprom_read(uint16_t offset, uint8_t *data, size_t len)
{
	uint8_t addr[EEPROM_ADDR_BYTES];

	if (data == NULL || len > EEPROM_SIZE || offset > EEPROM_SIZE - len) {
		return -EINVAL;
	}
	if (len == 0) {
		return 0;
	}

	addr[0] = (uint8_t)(offset >> 8);
	addr[1] = (uint8_t)(offset & 0xFF);

	return i2c_write_read_dt(&eeprom, addr, sizeof(addr), data, len);
}

int main(void)
{
	static uint8_t record[TEST_LEN];
	static uint8_t readback[TEST_LEN];
	int err;

	if (!i2c_is_ready_dt(&eeprom)) {
		printk("i2c bus %s not ready\n", eeprom.bus->name);
		return -ENODEV;
	}

	for (size_t i = 0; i < TEST_LEN; i++) {
		record[i] = (uint8_t)(0xA5 ^ i);
	}

	err = eeprom_write(TEST_OFFSET, record, sizeof(record));
	if (err < 0) {
		printk("eeprom write failed: %d\n", err);
		return err;
	}

	err = eeprom_read(TEST_OFFSET, readback, sizeof(readback));
	if (err < 0) {
		printk("eeprom read failed: %d\n", err);
		return err;
	}

	if (memcmp(record, readback, sizeof(record)) != 0) {
		printk("eeprom verify failed\n");
		return -EIO;
	}

	printk("eeprom verify ok\n");
	return 0;
}
