#include <errno.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/sensor.h>
#include <zephyr/sys/printk.h>

#define SAMPLE_PERIOD_MS 500
#define MICRO_MS2_PER_G  9806650LL

static const struct device *const accel = DEVICE_DT_GET_ONE(st_lis2dh);

static int32_t to_milli_g(const struct sensor_value *v)
{
	int64_t micro_ms2 = (int64_t)v->val1 * 1000000LL + v->val2;

	return (int32_t)(micro_ms2 * 1000LL / MICRO_MS2_PER_G);
}

static int read_accel(struct sensor_value xyz[3])
{
	int err;

	err = sensor_sample_fetch_chan(accel, SENSOR_CHAN_ACCEL_XYZ);
	if (err < 0) {
		return err;
	}

	return sensor_channel_get(accel, SENSOR_CHAN_ACCEL_XYZ, xyz);
}

int main(void)
{
	struct sensor_value xyz[3];

	if (!device_is_ready(accel)) {
		printk("accelerometer %s not ready\n", accel->name);
		return -ENODEV;
	}

	printk("accelerometer ready\n");

	while (1) {
		int err = read_accel(xyz);

		if (err < 0) {
			printk("accel read failed: %d\n", err);
		} else {
			printk("x=%d y=%d z=%d mg\n", to_milli_g(&xyz[0]),
			       to_milli_g(&xyz[1]), to_milli_g(&xyz[2]));
		}
		k_msleep(SAMPLE_PERIOD_MS);
	}

	return 0;
}
