#include <errno.h>
#include <string.h>
#include <zephyr/kernel.h>
#include <zephyr/drivers/i2c.h>

#define PAGE_BYTES   0x20
#define MAX_POLLS    40      /* 40 x 150 us = 6 ms > 5 ms tWR */
#define POLL_GAP_US  150

static const struct i2c_dt_spec at24 = I2C_DT_SPEC_GET(DT_NODELABEL(eeprom0));
static const uint16_t chip_size = 0x1000;

static int wait_write_cycle(void)
{
	uint8_t scratch;
	int ret = -EIO;

	for (int attempt = 0; attempt < MAX_POLLS; attempt++) {
		ret = i2c_read_dt(&at24, &scratch, 1);
		if (ret == 0) {
			break;
		}
		k_usleep(POLL_GAP_US);
	}
	if (ret != 0) {
		return ret;
	}
	return 0;
}

int eeprom_write(uint16_t offset, const uint8_t *data, size_t len)
{
	if (offset > chip_size || len > (size_t)(chip_size - offset)) {
		return -EINVAL;
	}

	size_t done = 0;

	while (done < len) {
		uint16_t addr = (uint16_t)(offset + done);
		size_t room = PAGE_BYTES - (addr % PAGE_BYTES);
		size_t left = len - done;
		size_t n = left < room ? left : room;
		uint8_t pkt[2 + PAGE_BYTES] = { (uint8_t)(addr >> 8), (uint8_t)addr };
		int ret;

		memcpy(&pkt[2], data + done, n);
		ret = i2c_write_dt(&at24, pkt, 2 + n);
		if (ret != 0) {
			return ret;
		}
		ret = wait_write_cycle();
		if (ret != 0) {
			return ret;
		}
		done += n;
	}
	return 0;
}

int eeprom_read(uint16_t offset, uint8_t *data, size_t len)
{
	const uint8_t addr[2] = { (uint8_t)(offset >> 8), (uint8_t)(offset & 0xFF) };

	if (offset > chip_size || len > (size_t)(chip_size - offset)) {
		return -EINVAL;
	}
	return i2c_write_read_dt(&at24, addr, sizeof(addr), data, len);
}

int main(void)
{
	uint8_t record[100];
	uint8_t check[100];
	int ret;

	if (!i2c_is_ready_dt(&at24)) {
		printk("I2C controller not ready\n");
		return -ENODEV;
	}

	for (unsigned int i = 0; i < sizeof(record); i++) {
		record[i] = (uint8_t)(0xA5 ^ i);
	}

	ret = eeprom_write(500, record, sizeof(record));
	if (ret < 0) {
		printk("EEPROM write error %d\n", ret);
		return ret;
	}

	ret = eeprom_read(500, check, sizeof(check));
	if (ret < 0) {
		printk("EEPROM read error %d\n", ret);
		return ret;
	}

	if (memcmp(check, record, sizeof(record))) {
		printk("eeprom verify failed\n");
		return -EIO;
	}
	printk("eeprom verify ok\n");
	return 0;
}
