#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/sensor.h>
#include <zephyr/sys/printk.h>

#define ALERT_MILLI_C 40000
#define MAX_FAILURES  5

static const struct device *const bme = DEVICE_DT_GET_ONE(bosch_bme280);

static int read_climate(struct sensor_value *temp, struct sensor_value *hum)
{
	int err;

	err = sensor_sample_fetch(bme);
	if (err < 0) {
		return err;
	}

	err = sensor_channel_get(bme, SENSOR_CHAN_AMBIENT_TEMP, temp);
	if (err < 0) {
		return err;
	}

	return sensor_channel_get(bme, SENSOR_CHAN_HUMIDITY, hum);
}

static void print_reading(int64_t temp_mc, int64_t hum_m)
{
	const char *sign = temp_mc < 0 ? "-" : "";
	int64_t t = temp_mc < 0 ? -temp_mc : temp_mc;

	if (hum_m < 0) {
		hum_m = 0;
	}

	printk("temp=%s%d.%02d C humidity=%d.%d %%\n", sign,
	       (int)(t / 1000), (int)((t % 1000) / 10),
	       (int)(hum_m / 1000), (int)((hum_m % 1000) / 100));
}

int main(void)
{
	unsigned int failures = 0;

	if (!device_is_ready(bme)) {
		printk("sensor %s not ready\n", bme->name);
		return -ENODEV;
	}

	printk("climate monitor ready\n");

	while (1) {
		struct sensor_value temp;
		struct sensor_value hum;
		int err = read_climate(&temp, &hum);

		if (err < 0) {
			printk("measurement failed: %d\n", err);
			if (++failures >= MAX_FAILURES) {
				return err;
			}
		} else {
			int64_t temp_mc = sensor_value_to_milli(&temp);

			failures = 0;
			print_reading(temp_mc, sensor_value_to_milli(&hum));
			if (temp_mc >= ALERT_MILLI_C) {
				printk("ALERT: over temperature\n");
			}
		}

		k_sleep(K_SECONDS(2));
	}
	return 0;
}
