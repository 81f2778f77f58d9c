/* defect: The return value of sensor_channel_get is ignored, so a failed channel read still prints a reading line with stale or uninitialised values.
 * breaks: "A failed read is printed with its error code and produces no reading line; streaming continues."
 * must_fail: sample_read_results_checked
 */

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/drivers/sensor.h>
#include <zephyr/sys/printk.h>
#include <errno.h>
#include <stdint.h>

static const struct device *const accel = DEVICE_DT_GET_ONE(st_lis2dh);

static K_SEM_DEFINE(drdy_sem, 0, 1);

static void drdy_handler(const struct device *dev,
			 const struct sensor_trigger *trig)
{
	ARG_UNUSED(dev);
	ARG_UNUSED(trig);

	k_sem_give(&drdy_sem);
}

static int32_t to_milli(const struct sensor_value *v)
{
	return v->val1 * 1000 + v->val2 / 1000;
}

int main(void)
{
	static const struct sensor_trigger trig = {
		.type = SENSOR_TRIG_DATA_READY,
		.chan = SENSOR_CHAN_ACCEL_XYZ,
	};
	struct sensor_value xyz[3];
	int err;

	if (!device_is_ready(accel)) {
		printk("error: LIS2DH %s not ready\n", accel->name);
		return -ENODEV;
	}

	err = sensor_trigger_set(accel, &trig, drdy_handler);
	if (err < 0) {
		printk("error: cannot set data-ready trigger (%d)\n", err);
		return err;
	}

	printk("accel ready\n");

	while (true) {
		if (k_sem_take(&drdy_sem, K_SECONDS(1)) != 0) {
			printk("accel timeout\n");
			continue;
		}

		err = sensor_sample_fetch(accel);
		if (err < 0) {
			printk("error: sample fetch failed (%d)\n", err);
			continue;
		}

		sensor_channel_get(accel, SENSOR_CHAN_ACCEL_XYZ, xyz);

		printk("x=%d y=%d z=%d\n",
		       (int)to_milli(&xyz[0]), (int)to_milli(&xyz[1]),
		       (int)to_milli(&xyz[2]));
	}

	return 0;
}
