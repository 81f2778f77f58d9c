/* defect: sensor_value_to_milli() yields milli-m/s^2, which is printed as mg without dividing by standard gravity, so values are ~9.8x too large.
 * breaks: "print the three axes as whole milli-g (1 g = 9.80665 m/s²) in the form `x=<mg> y=<mg> z=<mg> mg`"
 * must_fail: accel_converted_to_milli_g
 */
/*
 * Periodic LIS2DH acceleration report (Zephyr 4.1, generic sensor API).
 *
 * A periodic kernel timer paces the loop at 500 ms; each period the
 * accelerometer channel group is fetched, read in one channel_get call and
 * printed as integer milli-g.
 */
#include <errno.h>
#include <stdint.h>

#include <zephyr/device.h>
#include <zephyr/drivers/sensor.h>
#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>

#define ACCEL_NODE DT_COMPAT_GET_ANY_STATUS_OKAY(st_lis2dh)

#if !DT_NODE_EXISTS(ACCEL_NODE)
#error "No st,lis2dh node with status okay in the devicetree"
#endif

static const struct device *const lis2dh = DEVICE_DT_GET(ACCEL_NODE);

K_TIMER_DEFINE(sample_timer, NULL, NULL);

int main(void)
{
	struct sensor_value xyz[3];
	int32_t mg[3];
	int err;

	if (!device_is_ready(lis2dh)) {
		printk("LIS2DH device %s not ready, aborting\n", lis2dh->name);
		return -ENODEV;
	}
	printk("accelerometer ready\n");

	k_timer_start(&sample_timer, K_NO_WAIT, K_MSEC(500));

	for (;;) {
		k_timer_status_sync(&sample_timer);

		err = sensor_sample_fetch_chan(lis2dh, SENSOR_CHAN_ACCEL_XYZ);
		if (err != 0) {
			printk("accel fetch error %d\n", err);
			continue;
		}

		err = sensor_channel_get(lis2dh, SENSOR_CHAN_ACCEL_XYZ, xyz);
		if (err != 0) {
			printk("accel read error %d\n", err);
			continue;
		}

		for (int i = 0; i < 3; i++) {
			mg[i] = (int32_t)sensor_value_to_milli(&xyz[i]);
		}

		printk("x=%d y=%d z=%d mg\n", (int)mg[0], (int)mg[1], (int)mg[2]);
	}

	return 0;
}
