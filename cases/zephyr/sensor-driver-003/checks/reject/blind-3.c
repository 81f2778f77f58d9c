/* defect: a failed sensor_sample_fetch_chan() is logged but execution falls through to sensor_channel_get() and prints a reading line with stale data.
 * breaks: "A failed measurement is reported with its error code, produces no reading line, and the application keeps sampling."
 * must_fail: fetch_result_checked
 */
/*
 * LIS2DH accelerometer readout through the Zephyr generic sensor API.
 *
 * Every 500 ms the acceleration channels only are fetched and the three
 * axes are printed in whole milli-g, using integer arithmetic (no float
 * printf support is enabled).
 */
#include <errno.h>
#include <stdint.h>

#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/sensor.h>
#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>

#define SAMPLE_PERIOD_MS 500

/* Standard gravity, 9.80665 m/s^2, expressed in micro-m/s^2. */
#define STD_GRAVITY_UMS2 9806650LL

static const struct device *const accel_dev = DEVICE_DT_GET_ONE(st_lis2dh);

/* Convert a sensor_value in m/s^2 to milli-g, rounded to the nearest integer. */
static int32_t ms2_to_mg(const struct sensor_value *v)
{
	int64_t ums2 = (int64_t)v->val1 * 1000000LL + (int64_t)v->val2;
	int64_t num = ums2 * 1000LL;

	if (num >= 0) {
		return (int32_t)((num + STD_GRAVITY_UMS2 / 2) / STD_GRAVITY_UMS2);
	}
	return (int32_t)((num - STD_GRAVITY_UMS2 / 2) / STD_GRAVITY_UMS2);
}

static void read_and_print(void)
{
	struct sensor_value accel[3];
	int rc;

	rc = sensor_sample_fetch_chan(accel_dev, SENSOR_CHAN_ACCEL_XYZ);
	if (rc < 0) {
		printk("sample fetch failed: %d\n", rc);
	}

	rc = sensor_channel_get(accel_dev, SENSOR_CHAN_ACCEL_XYZ, accel);
	if (rc < 0) {
		printk("channel get failed: %d\n", rc);
		return;
	}

	printk("x=%d y=%d z=%d mg\n",
	       (int)ms2_to_mg(&accel[0]),
	       (int)ms2_to_mg(&accel[1]),
	       (int)ms2_to_mg(&accel[2]));
}

int main(void)
{
	int64_t next_ms;

	if (!device_is_ready(accel_dev)) {
		printk("error: accelerometer %s is not ready\n", accel_dev->name);
		return -ENODEV;
	}
	printk("accelerometer ready\n");

	next_ms = k_uptime_get();
	while (1) {
		read_and_print();

		/* absolute deadlines: the period does not drift with I2C time */
		next_ms += SAMPLE_PERIOD_MS;
		k_sleep(K_TIMEOUT_ABS_MS(next_ms));
	}

	return 0;
}
