/* defect: The temperature is printed as val1 followed by |val2|, so readings between -1 and 0 C (e.g. -0.07) lose their minus sign and print as positive.
 * breaks: "The enclosure is outdoors: temperatures below zero are normal and must print correctly."
 * must_fail: negative_temperature_formatting
 */

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/drivers/sensor.h>
#include <zephyr/sys/printk.h>
#include <stdint.h>
#include <stdlib.h>

#define SAMPLE_PERIOD        K_SECONDS(2)
#define MAX_CONSEC_FAILURES  5

static const struct device *const bme280 = DEVICE_DT_GET_ONE(bosch_bme280);

int main(void)
{
	struct sensor_value temp;
	struct sensor_value hum;
	int failures = 0;
	int err;

	if (!device_is_ready(bme280)) {
		printk("BME280 %s is not ready\n", bme280->name);
		return -ENODEV;
	}

	printk("climate monitor ready\n");

	while (true) {
		k_sleep(SAMPLE_PERIOD);

		err = sensor_sample_fetch(bme280);
		if (err == 0) {
			err = sensor_channel_get(bme280,
						 SENSOR_CHAN_AMBIENT_TEMP,
						 &temp);
		}
		if (err == 0) {
			err = sensor_channel_get(bme280, SENSOR_CHAN_HUMIDITY,
						 &hum);
		}

		if (err < 0) {
			failures++;
			printk("measurement failed: %d (%d in a row)\n",
			       err, failures);
			if (failures >= MAX_CONSEC_FAILURES) {
				return err;
			}
			continue;
		}

		failures = 0;

		/* val2 has the same sign as val1; print its magnitude. */
		printk("temp=%d.%02d C humidity=%d.%d %%\n",
		       (int)temp.val1, abs(temp.val2) / 10000,
		       (int)hum.val1, abs(hum.val2) / 100000);

		if (temp.val1 >= 40) {
			printk("ALERT: over temperature\n");
		}
	}

	return 0;
}
