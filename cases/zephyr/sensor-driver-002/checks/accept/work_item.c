#include <zephyr/kernel.h>
#include <zephyr/drivers/sensor.h>

static const struct device *dev = DEVICE_DT_GET(DT_COMPAT_GET_ANY_STATUS_OKAY(st_lis2dh));
static struct k_sem drdy;

static void trigger_cb(const struct device *d, const struct sensor_trigger *t)
{
	k_sem_give(&drdy);
}

int main(void)
{
	struct sensor_trigger trig = {
		.type = SENSOR_TRIG_DATA_READY,
		.chan = SENSOR_CHAN_ACCEL_XYZ,
	};
	int rc;

	k_sem_init(&drdy, 0, 1);
	if (!device_is_ready(dev)) {
		return -ENODEV;
	}
	rc = sensor_trigger_set(dev, &trig, trigger_cb);
	if (rc) {
		printk("trigger_set failed %d\n", rc);
		return rc;
	}
	printk("accel ready\n");

	for (;;) {
		struct sensor_value v[3];

		rc = k_sem_take(&drdy, K_MSEC(1000));
		if (rc == -EAGAIN) {
			printk("accel timeout\n");
			continue;
		}
		rc = sensor_sample_fetch(dev);
		if (rc == 0) {
			rc = sensor_channel_get(dev, SENSOR_CHAN_ACCEL_XYZ, v);
		}
		if (rc) {
			printk("read failed %d\n", rc);
			continue;
		}
		printk("x=%lld y=%lld z=%lld\n", sensor_value_to_milli(&v[0]),
		       sensor_value_to_milli(&v[1]), sensor_value_to_milli(&v[2]));
	}
}
