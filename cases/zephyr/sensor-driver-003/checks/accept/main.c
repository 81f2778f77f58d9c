#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/drivers/sensor.h>

#define ACCEL_NODE DT_COMPAT_GET_ANY_STATUS_OKAY(st_lis2dh)
#define AXES 3

static const struct device *const dev = DEVICE_DT_GET(ACCEL_NODE);

int main(void)
{
	struct sensor_value acc[AXES];
	int ret;

	if (!device_is_ready(dev)) {
		printk("device not ready\n");
		return -ENODEV;
	}
	printk("accelerometer ready\n");

	for (;;) {
		k_sleep(K_MSEC(500));

		ret = sensor_sample_fetch_chan(dev, SENSOR_CHAN_ACCEL_XYZ);
		if (ret != 0) {
			printk("fetch error %d\n", ret);
			continue;
		}
		ret = sensor_channel_get(dev, SENSOR_CHAN_ACCEL_XYZ, acc);
		if (ret != 0) {
			printk("get error %d\n", ret);
			continue;
		}

		int32_t mg[AXES];

		for (int i = 0; i < AXES; i++) {
			int64_t micro = sensor_value_to_micro(&acc[i]);

			mg[i] = (int32_t)(micro * 1000 / 9806650);
		}
		printk("x=%d y=%d z=%d mg\n", mg[0], mg[1], mg[2]);
	}
	return 0;
}
