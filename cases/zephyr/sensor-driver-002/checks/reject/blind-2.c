/* defect: When sensor_trigger_set fails, main returns the negated (positive) value of its already-negative error code.
 * breaks: "If the sensor is not usable or the trigger cannot be registered, print an error and let `main` return a negative errno."
 * must_fail: trigger_set_result_checked
 */

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/sensor.h>
#include <zephyr/sys/printk.h>
#include <errno.h>

#define ACCEL_NODE      DT_COMPAT_GET_ANY_STATUS_OKAY(st_lis2dh)
#define DRDY_TIMEOUT    K_MSEC(1000)

static const struct device *const lis2dh = DEVICE_DT_GET(ACCEL_NODE);

static struct k_sem data_ready;

static const struct sensor_trigger drdy_trigger = {
	.type = SENSOR_TRIG_DATA_READY,
	.chan = SENSOR_CHAN_ACCEL_XYZ,
};

static void on_data_ready(const struct device *dev,
			  const struct sensor_trigger *trigger)
{
	ARG_UNUSED(dev);
	ARG_UNUSED(trigger);

	k_sem_give(&data_ready);
}

static int read_accel(int32_t mm[3])
{
	static const enum sensor_channel axes[3] = {
		SENSOR_CHAN_ACCEL_X, SENSOR_CHAN_ACCEL_Y, SENSOR_CHAN_ACCEL_Z,
	};
	struct sensor_value val;
	int ret;

	ret = sensor_sample_fetch_chan(lis2dh, SENSOR_CHAN_ACCEL_XYZ);
	if (ret != 0) {
		return ret;
	}

	for (int i = 0; i < 3; i++) {
		ret = sensor_channel_get(lis2dh, axes[i], &val);
		if (ret != 0) {
			return ret;
		}
		mm[i] = (int32_t)sensor_value_to_milli(&val);
	}

	return 0;
}

int main(void)
{
	int32_t mm[3];
	int ret;

	k_sem_init(&data_ready, 0, 1);

	if (!device_is_ready(lis2dh)) {
		printk("LIS2DH device not ready\n");
		return -ENODEV;
	}

	ret = sensor_trigger_set(lis2dh, &drdy_trigger, on_data_ready);
	if (ret != 0) {
		printk("sensor_trigger_set failed: %d\n", ret);
		return -ret;
	}

	printk("accel ready\n");

	for (;;) {
		ret = k_sem_take(&data_ready, DRDY_TIMEOUT);
		if (ret == -EAGAIN) {
			printk("accel timeout\n");
			continue;
		}

		ret = read_accel(mm);
		if (ret != 0) {
			printk("accel read failed: %d\n", ret);
			continue;
		}

		printk("x=%d y=%d z=%d\n", (int)mm[0], (int)mm[1], (int)mm[2]);
	}
}
