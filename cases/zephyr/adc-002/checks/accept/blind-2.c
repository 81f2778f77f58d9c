#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/adc.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>

#define USER_NODE DT_PATH(zephyr_user)

#if !DT_NODE_HAS_PROP(USER_NODE, io_channels)
#error "/zephyr,user has no io-channels property"
#endif

#define CHANNEL_COUNT    DT_PROP_LEN(USER_NODE, io_channels)
#define BURST_SAMPLINGS  8
#define BURST_GAP_US     (1 * USEC_PER_MSEC)
#define BURST_PERIOD_MS  1000

BUILD_ASSERT(CHANNEL_COUNT == 2, "exactly two io-channels expected");

#define DT_SPEC_AND_COMMA(node_id, prop, idx) \
	ADC_DT_SPEC_GET_BY_IDX(node_id, idx),

static const struct adc_dt_spec chan[] = {
	DT_FOREACH_PROP_ELEM(USER_NODE, io_channels, DT_SPEC_AND_COMMA)
};

/* [sampling][position of the channel inside one sampling] */
static int16_t burst[BURST_SAMPLINGS][CHANNEL_COUNT];

int main(void)
{
	struct adc_sequence_options opts = {
		.interval_us = BURST_GAP_US,
		.extra_samplings = BURST_SAMPLINGS - 1,
	};
	struct adc_sequence seq = {
		.options = &opts,
		.channels = 0,
		.buffer = burst,
		.buffer_size = sizeof(burst),
		.resolution = chan[0].resolution,
		.oversampling = chan[0].oversampling,
		.calibrate = false,
	};
	bool need_calibration = true;
	size_t pos0, pos1;
	int64_t next_burst;
	int err;

	for (size_t i = 0; i < ARRAY_SIZE(chan); i++) {
		if (!device_is_ready(chan[i].dev)) {
			printk("ADC device %s is not ready\n", chan[i].dev->name);
			return -ENODEV;
		}
		err = adc_channel_setup_dt(&chan[i]);
		if (err != 0) {
			printk("could not set up channel #%u (%d)\n", (unsigned int)i, err);
			return err;
		}
		seq.channels |= BIT(chan[i].channel_id);
	}

	if (chan[0].dev != chan[1].dev || chan[0].channel_id == chan[1].channel_id) {
		printk("io-channels must be two distinct channels of one ADC\n");
		return -EINVAL;
	}

	/* Results of a sampling are stored by increasing channel id. */
	pos0 = (chan[0].channel_id < chan[1].channel_id) ? 0 : 1;
	pos1 = 1 - pos0;

	printk("adc burst ready\n");

	next_burst = k_uptime_get();

	for (;;) {
		seq.calibrate = need_calibration;

		err = adc_read_dt(&chan[0], &seq);
		if (err != 0) {
			printk("adc burst error %d\n", err);
		} else {
			int32_t sum0 = 0;
			int32_t sum1 = 0;

			need_calibration = false;

			for (int s = 0; s < BURST_SAMPLINGS; s++) {
				sum0 += burst[s][pos0];
				sum1 += burst[s][pos1];
			}

			printk("ch0=%d ch1=%d\n", (int)(sum0 / BURST_SAMPLINGS),
			       (int)(sum1 / BURST_SAMPLINGS));
		}

		/* Absolute deadlines: the burst rate does not drift. */
		next_burst += BURST_PERIOD_MS;
		k_sleep(K_TIMEOUT_ABS_MS(next_burst));
	}

	return 0;
}
