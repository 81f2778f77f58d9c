/*
 * LIS2DH acceleration streaming driven by the data-ready interrupt.
 *
 * The trigger handler runs in the driver's context (GPIO ISR or a work
 * queue thread, depending on Kconfig), so it only gives a semaphore.
 * main's thread does the bus traffic and printing.
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
	/* val1 and val2 share the sign, so this is correct for negatives. */
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

		err = sensor_channel_get(accel, SENSOR_CHAN_ACCEL_XYZ, xyz);
		if (err < 0) {
			printk("error: channel get failed (%d)\n", err);
			continue;
		}

		printk("x=%d y=%d z=%d\n",
		       (int)to_milli(&xyz[0]), (int)to_milli(&xyz[1]),
		       (int)to_milli(&xyz[2]));
	}

	return 0;
}
