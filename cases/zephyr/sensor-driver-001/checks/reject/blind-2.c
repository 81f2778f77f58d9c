/* defect: The consecutive-failure counter is never cleared after a good measurement, so any 5 failures spread over time stop main.
 * breaks: "After 5 failures in a row `main` stops with the last error; a successful measurement resets that count."
 * must_fail: failure_count_reset_on_success
 */

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/sensor.h>
#include <zephyr/sys/printk.h>
#include <errno.h>
#include <stdint.h>

#define BME280_NODE DT_COMPAT_GET_ANY_STATUS_OKAY(bosch_bme280)

BUILD_ASSERT(DT_NODE_EXISTS(BME280_NODE), "no enabled bosch,bme280 node");

static const struct device *const sensor = DEVICE_DT_GET(BME280_NODE);

K_TIMER_DEFINE(sample_timer, NULL, NULL);

static void format_fixed(char *buf, size_t size, int64_t milli, int decimals)
{
	int64_t scaled = (decimals == 2) ? milli / 10 : milli / 100;
	int64_t mag = (scaled < 0) ? -scaled : scaled;
	const char *sign = (scaled < 0) ? "-" : "";

	if (decimals == 2) {
		snprintk(buf, size, "%s%d.%02d", sign, (int)(mag / 100),
			 (int)(mag % 100));
	} else {
		snprintk(buf, size, "%s%d.%d", sign, (int)(mag / 10),
			 (int)(mag % 10));
	}
}

int main(void)
{
	struct sensor_value temp, hum;
	int errors = 0;
	int ret;

	if (!device_is_ready(sensor)) {
		printk("error: BME280 not ready\n");
		return -ENODEV;
	}

	printk("climate monitor ready\n");

	k_timer_start(&sample_timer, K_SECONDS(2), K_SECONDS(2));

	for (;;) {
		k_timer_status_sync(&sample_timer);

		ret = sensor_sample_fetch(sensor);
		if (ret == 0) {
			ret = sensor_channel_get(sensor,
						 SENSOR_CHAN_AMBIENT_TEMP,
						 &temp);
		}
		if (ret == 0) {
			ret = sensor_channel_get(sensor, SENSOR_CHAN_HUMIDITY,
						 &hum);
		}

		if (ret != 0) {
			printk("error: measurement failed (%d)\n", ret);
			if (++errors >= 5) {
				k_timer_stop(&sample_timer);
				return ret;
			}
			continue;
		}

		int64_t temp_milli = sensor_value_to_milli(&temp);
		int64_t hum_milli = sensor_value_to_milli(&hum);
		char t_str[16];
		char h_str[16];

		format_fixed(t_str, sizeof(t_str), temp_milli, 2);
		format_fixed(h_str, sizeof(h_str), hum_milli, 1);
		printk("temp=%s C humidity=%s %%\n", t_str, h_str);

		if (temp_milli >= 40000) {
			printk("ALERT: over temperature\n");
		}
	}
}
