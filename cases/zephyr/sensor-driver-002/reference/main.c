#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/sensor.h>
#include <zephyr/sys/printk.h>

static const struct device *const accel = DEVICE_DT_GET_ONE(st_lis2dh);

static K_SEM_DEFINE(data_ready, 0, 1);

static const struct sensor_trigger drdy_trig = {
	.type = SENSOR_TRIG_DATA_READY,
	.chan = SENSOR_CHAN_ACCEL_XYZ,
};

static void on_data_ready(const struct device *dev, const struct sensor_trigger *trig)
{
	ARG_UNUSED(dev);
	ARG_UNUSED(trig);

	k_sem_give(&data_ready);
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
	int err;

	if (!device_is_ready(accel)) {
		printk("sensor %s not ready\n", accel->name);
		return -ENODEV;
	}

	err = sensor_trigger_set(accel, &drdy_trig, on_data_ready);
	if (err < 0) {
		printk("data-ready trigger not available: %d\n", err);
		return err;
	}

	printk("accel ready\n");

	while (1) {
		struct sensor_value xyz[3];

		if (k_sem_take(&data_ready, K_SECONDS(1)) != 0) {
			printk("accel timeout\n");
			continue;
		}

		err = read_accel(xyz);
		if (err < 0) {
			printk("accel read failed: %d\n", err);
			continue;
		}

		printk("x=%d y=%d z=%d\n", (int)sensor_value_to_milli(&xyz[0]),
		       (int)sensor_value_to_milli(&xyz[1]), (int)sensor_value_to_milli(&xyz[2]));
	}
	return 0;
}
