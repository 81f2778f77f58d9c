/* defect: The alert uses a strict greater-than comparison, so a reading of exactly 40.00 C does not raise the alert.
 * breaks: "When the temperature is 40.00 C or more, also print `ALERT: over temperature`."
 * must_fail: alert_threshold_inclusive
 */

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/drivers/sensor.h>
#include <zephyr/sys/printk.h>
#include <stdint.h>
#include <stdlib.h>

#define SAMPLE_PERIOD        K_SECONDS(2)
#define MAX_CONSEC_FAILURES  5
#define ALERT_TEMP_CENTI_C   4000 /* 40.00 C */

static const struct device *const bme280 = DEVICE_DT_GET_ONE(bosch_bme280);

static int measure(int32_t *temp_centi, int32_t *hum_deci)
{
	struct sensor_value temp;
	struct sensor_value hum;
	int err;

	err = sensor_sample_fetch(bme280);
	if (err < 0) {
		return err;
	}

	err = sensor_channel_get(bme280, SENSOR_CHAN_AMBIENT_TEMP, &temp);
	if (err < 0) {
		return err;
	}

	err = sensor_channel_get(bme280, SENSOR_CHAN_HUMIDITY, &hum);
	if (err < 0) {
		return err;
	}

	*temp_centi = temp.val1 * 100 + temp.val2 / 10000;
	*hum_deci = hum.val1 * 10 + hum.val2 / 100000;

	return 0;
}

int main(void)
{
	int failures = 0;
	int err;

	if (!device_is_ready(bme280)) {
		printk("BME280 %s is not ready\n", bme280->name);
		return -ENODEV;
	}

	printk("climate monitor ready\n");

	while (true) {
		int32_t t_c;
		int32_t h_d;

		k_sleep(SAMPLE_PERIOD);

		err = measure(&t_c, &h_d);
		if (err < 0) {
			failures++;
			printk("measurement failed: %d (%d in a row)\n",
			       err, failures);
			if (failures >= MAX_CONSEC_FAILURES) {
				printk("too many failures, stopping\n");
				return err;
			}
			continue;
		}

		failures = 0;

		printk("temp=%s%d.%02d C humidity=%s%d.%d %%\n",
		       t_c < 0 ? "-" : "", abs(t_c) / 100, abs(t_c) % 100,
		       h_d < 0 ? "-" : "", abs(h_d) / 10, abs(h_d) % 10);

		if (t_c > ALERT_TEMP_CENTI_C) {
			printk("ALERT: over temperature\n");
		}
	}

	return 0;
}
