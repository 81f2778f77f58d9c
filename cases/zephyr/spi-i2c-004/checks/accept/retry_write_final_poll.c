#include <errno.h>
#include <string.h>
#include <zephyr/kernel.h>
#include <zephyr/drivers/i2c.h>

#define EEPROM_SIZE   (4 * 1024)
#define PAGE          32
#define PAGE_MASK     (PAGE - 1)
#define TIMEOUT_MS    6

static const struct i2c_dt_spec dev = I2C_DT_SPEC_GET(DT_NODELABEL(eeprom0));

static int page_write(uint16_t addr, const uint8_t *src, size_t n)
{
	uint8_t block[2 + PAGE];
	int64_t timeout;
	int err;

	block[0] = (uint8_t)(addr >> 8);
	block[1] = (uint8_t)addr;
	memcpy(&block[2], src, n);

	/* The chip NACKs while it still programs the previous page. */
	timeout = k_uptime_get() + TIMEOUT_MS;
	do {
		err = i2c_write_dt(&dev, block, n + 2);
		if (!err) {
			break;
		}
		k_sleep(K_MSEC(1));
	} while (timeout > k_uptime_get());

	return err;
}

static int wait_idle(void)
{
	uint8_t b;
	int64_t timeout = k_uptime_get() + TIMEOUT_MS;
	int err;

	do {
		err = i2c_read_dt(&dev, &b, 1);
		if (!err) {
			return 0;
		}
		k_sleep(K_MSEC(1));
	} while (timeout > k_uptime_get());
	return -ETIMEDOUT;
}

int eeprom_write(uint16_t offset, const uint8_t *data, size_t len)
{
	if ((size_t)offset + len > EEPROM_SIZE) {
		return -EINVAL;
	}
	while (len) {
		size_t n = PAGE - (offset & PAGE_MASK);
		int err;

		if (n > len) {
			n = len;
		}
		err = page_write(offset, data, n);
		if (err) {
			return err;
		}
		offset += n;
		data += n;
		len -= n;
	}
	/* the last page must be programmed before reporting success */
	return wait_idle();
}

int eeprom_read(uint16_t offset, uint8_t *data, size_t len)
{
	uint8_t a[2] = { (uint8_t)(offset >> 8), (uint8_t)(offset & 0xff) };
	int64_t timeout = k_uptime_get() + TIMEOUT_MS;
	int err;

	do {
		err = i2c_write_read_dt(&dev, a, 2, data, len);
		if (!err) {
			break;
		}
		k_sleep(K_MSEC(1));
	} while (timeout > k_uptime_get());
	return err;
}

int main(void)
{
	static uint8_t w[100], r[100];
	int err;

	if (!device_is_ready(dev.bus)) {
		printk("bus not ready\n");
		return -ENODEV;
	}
	for (int i = 0; i < 100; i++) {
		w[i] = (uint8_t)(0xA5 ^ i);
	}
	err = eeprom_write(500, w, sizeof(w));
	if (err) {
		printk("write failed %d\n", err);
		return err;
	}
	err = eeprom_read(500, r, sizeof(r));
	if (err) {
		printk("read failed %d\n", err);
		return err;
	}
	if (memcmp(w, r, sizeof(w)) != 0) {
		printk("eeprom verify failed\n");
		return -EIO;
	}
	printk("eeprom verify ok\n");
	return 0;
}
