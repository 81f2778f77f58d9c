/* defect: The data-ready callback itself fetches the sample over the bus and converts the channels, so the measurement is done in the driver's ISR/work-queue context instead of main's thread.
 * breaks: "The trigger callback runs in a context the driver shares with other work (depending on the configuration a work-queue thread or the GPIO interrupt), so the measurement itself is processed by `main`'s thread."
 * must_fail: trigger_handler_defers_work
 */

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/drivers/sensor.h>
#include <zephyr/sys/printk.h>
#include <errno.h>
#include <stdint.h>

static const struct device *const accel = DEVICE_DT_GET_ONE(st_lis2dh);

static K_SEM_DEFINE(drdy_sem, 0, 1);

static struct sensor_value latest[3];
static volatile int latest_err;

static void drdy_handler(const struct device *dev,
			 const struct sensor_trigger *trig)
{
	int err;

	ARG_UNUSED(trig);

	err = sensor_sample_fetch(dev);
	if (err == 0) {
		err = sensor_channel_get(dev, SENSOR_CHAN_ACCEL_XYZ, latest);
	}
	latest_err = err;

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

		err = latest_err;
		if (err < 0) {
			printk("error: accel read failed (%d)\n", err);
			continue;
		}

		printk("x=%d y=%d z=%d\n",
		       (int)to_milli(&latest[0]), (int)to_milli(&latest[1]),
		       (int)to_milli(&latest[2]));
	}

	return 0;
}
