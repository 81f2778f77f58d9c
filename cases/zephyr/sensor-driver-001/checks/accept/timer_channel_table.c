/*
 * Outdoor enclosure climate monitor: BME280 through the generic sensor API,
 * sampled by a periodic kernel timer, printed with integer arithmetic only.
 */
#include <stdint.h>
#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/sensor.h>
#include <zephyr/sys/printk.h>

#define CLIMATE_NODE DT_INST(0, bosch_bme280)

enum { READ_TEMP, READ_HUMIDITY, READ_COUNT };

/* Channels read after every fetch, in the order of the enum above. */
static const enum sensor_channel climate_channels[READ_COUNT] = {
	[READ_TEMP] = SENSOR_CHAN_AMBIENT_TEMP,
	[READ_HUMIDITY] = SENSOR_CHAN_HUMIDITY,
};

struct monitor {
	const struct device *sensor;
	unsigned int fail_streak;
	int last_err;
};

static struct monitor mon = {
	.sensor = DEVICE_DT_GET(CLIMATE_NODE),
};

K_TIMER_DEFINE(sample_tick, NULL, NULL);

static const unsigned int fail_limit = 5;
static const int64_t alert_micro_c = 40000000; /* 40.00 C in micro-degrees */

/* One fresh measurement: fetch a new sample, then read every channel of it. */
static int sample_climate(struct monitor *m, int64_t micro[READ_COUNT])
{
	int rc = sensor_sample_fetch(m->sensor);

	if (rc != 0) {
		return rc;
	}

	for (int i = 0; i < READ_COUNT; i++) {
		struct sensor_value v;

		rc = sensor_channel_get(m->sensor, climate_channels[i], &v);
		if (rc != 0) {
			return rc;
		}
		/* val1 and val2 carry the same sign, so one integer holds the value */
		micro[i] = sensor_value_to_micro(&v);
	}
	return 0;
}

static void show_climate(const int64_t micro[READ_COUNT])
{
	int64_t centi_c = micro[READ_TEMP] / 10000;   /* truncates toward zero */
	int64_t deci_rh = micro[READ_HUMIDITY] / 100000;
	unsigned int mag_c = (unsigned int)(centi_c < 0 ? -centi_c : centi_c);
	unsigned int rh = deci_rh > 0 ? (unsigned int)deci_rh : 0U;

	printk("temp=%s%u.%02u C humidity=%u.%u %%\n", centi_c < 0 ? "-" : "",
	       mag_c / 100U, mag_c % 100U, rh / 10U, rh % 10U);

	if (micro[READ_TEMP] >= alert_micro_c) {
		printk("ALERT: over temperature\n");
	}
}

int main(void)
{
	if (!device_is_ready(mon.sensor)) {
		printk("climate sensor %s unusable\n", mon.sensor->name);
		return -ENODEV;
	}
	printk("climate monitor ready\n");

	/* first expiry at once, then one measurement every two seconds */
	k_timer_start(&sample_tick, K_NO_WAIT, K_SECONDS(2));

	do {
		int64_t micro[READ_COUNT];

		k_timer_status_sync(&sample_tick);

		mon.last_err = sample_climate(&mon, micro);
		if (mon.last_err == 0) {
			mon.fail_streak = 0;
			show_climate(micro);
		} else {
			mon.fail_streak++;
			printk("measurement failed (%u in a row): %d\n", mon.fail_streak,
			       mon.last_err);
		}
	} while (mon.fail_streak < fail_limit);

	k_timer_stop(&sample_tick);
	return mon.last_err;
}
