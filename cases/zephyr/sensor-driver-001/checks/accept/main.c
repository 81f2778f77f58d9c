#include <stdlib.h>
#include <zephyr/kernel.h>
#include <zephyr/drivers/sensor.h>

#define BME280_NODE DT_COMPAT_GET_ANY_STATUS_OKAY(bosch_bme280)

int main(void)
{
	const struct device *dev = DEVICE_DT_GET(BME280_NODE);
	int consecutive = 0;

	if (!device_is_ready(dev)) {
		printk("BME280 not ready\n");
		return -EIO;
	}
	printk("climate monitor ready\n");

	for (;;) {
		struct sensor_value t, h;
		int rc;

		k_sleep(K_MSEC(2000));

		rc = sensor_sample_fetch(dev);
		if (rc == 0) {
			rc = sensor_channel_get(dev, SENSOR_CHAN_AMBIENT_TEMP, &t);
		}
		if (rc == 0) {
			rc = sensor_channel_get(dev, SENSOR_CHAN_HUMIDITY, &h);
		}
		if (rc != 0) {
			printk("read error %d\n", rc);
			consecutive++;
			if (consecutive == 5) {
				return rc;
			}
			continue;
		}
		consecutive = 0;

		/* centi-degrees: val1 and val2 share the sign */
		int32_t centi = t.val1 * 100 + t.val2 / 10000;
		int32_t deci_rh = h.val1 * 10 + h.val2 / 100000;

		printk("temp=%s%d.%02d C humidity=%d.%d %%\n", centi < 0 ? "-" : "",
		       abs(centi) / 100, abs(centi) % 100, deci_rh / 10, deci_rh % 10);
		if (centi >= 4000) {
			printk("ALERT: over temperature\n");
		}
	}
}
