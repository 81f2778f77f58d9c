/* defect: After every page write the code sleeps a fixed 5 ms instead of ACK polling, always waiting the worst-case write time even when the chip is ready much sooner.
 * breaks: "Writes are on the application's critical path: do not wait longer than the chip actually needs after a write."
 * must_fail: write_cycle_ack_polling
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
#define EEPROM_WRITE_CYCLE_MS  5

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

/* Give the chip time to finish its internal write cycle (tWR <= 5 ms). */
static void eeprom_wait_write_cycle(void)
{
	k_msleep(EEPROM_WRITE_CYCLE_MS);
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

	eeprom_wait_write_cycle();
	return 0;
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
