#include <errno.h>
#include <zephyr/kernel.h>
#include <zephyr/sys/util.h>
#include <zephyr/drivers/sensor.h>

#define ACCEL_NODE DT_INST(0, st_lis2dh)
#define SAMPLE_WAIT K_MSEC(1000)

/* One pending "new sample" notice; the message is the device that raised it. */
K_MSGQ_DEFINE(drdy_notices, sizeof(const struct device *), 1, sizeof(void *));

static const enum sensor_channel accel_axes[] = {
	SENSOR_CHAN_ACCEL_X,
	SENSOR_CHAN_ACCEL_Y,
	SENSOR_CHAN_ACCEL_Z,
};

/* Runs in the driver's callback context: hand over and get out. A full
 * queue means the thread has not picked up the previous notice yet; it will
 * read the newest sample anyway, so the extra notice is dropped.
 */
static void post_drdy_notice(const struct device *sensor, const struct sensor_trigger *trigger)
{
	ARG_UNUSED(trigger);

	(void)k_msgq_put(&drdy_notices, &sensor, K_NO_WAIT);
}

/* sensor_value holds val1 + val2 / 1000000 with both parts of the same sign. */
static int value_in_milli(const struct sensor_value *v)
{
	return v->val1 * 1000 + v->val2 / 1000;
}

static int take_sample(const struct device *sensor, int milli[3])
{
	struct sensor_value axis;
	int ret = sensor_sample_fetch(sensor);

	for (size_t i = 0; ret == 0 && i < ARRAY_SIZE(accel_axes); i++) {
		ret = sensor_channel_get(sensor, accel_axes[i], &axis);
		if (ret == 0) {
			milli[i] = value_in_milli(&axis);
		}
	}
	return ret;
}

static void stream_accel(void)
{
	for (;;) {
		const struct device *source;
		int milli[3];
		int ret;

		ret = k_msgq_get(&drdy_notices, &source, SAMPLE_WAIT);
		if (ret != 0) {
			printk("accel timeout\n");
		} else {
			ret = take_sample(source, milli);
			if (ret != 0) {
				printk("sample read error %d\n", ret);
			} else {
				printk("x=%d y=%d z=%d\n", milli[0], milli[1], milli[2]);
			}
		}
	}
}

int main(void)
{
	static const struct sensor_trigger drdy = {
		.chan = SENSOR_CHAN_ACCEL_XYZ,
		.type = SENSOR_TRIG_DATA_READY,
	};
	const struct device *const lis = DEVICE_DT_GET(ACCEL_NODE);
	int ret;

	if (!device_is_ready(lis)) {
		printk("%s: device not ready\n", lis->name);
		return -ENODEV;
	}

	ret = sensor_trigger_set(lis, &drdy, post_drdy_notice);
	if (ret != 0) {
		printk("%s: cannot register data-ready trigger (%d)\n", lis->name, ret);
		return ret;
	}

	printk("accel ready\n");
	stream_accel();
	return 0;
}
