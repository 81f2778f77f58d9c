/* defect: Averages assume the driver stores all 8 samplings of one channel contiguously, but results are interleaved per sampling, so each printed "average" mixes both channels.
 * breaks: "For each burst print `ch0=<avg> ch1=<avg>` with the average raw value of each channel over the 8 samplings."
 * must_fail: averages_use_interleaved_layout
 */
/*
 * Two-channel calibrated ADC burst sampler.
 *
 * Both channels come from the io-channels property of /zephyr,user.
 * Once a second a single adc_read_dt() request samples both channels
 * 8 times, 1 ms apart (1 sampling + 7 extra samplings handled by the
 * driver). Offset calibration is requested until a burst succeeds.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/adc.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>

#define ADC_USER_NODE DT_PATH(zephyr_user)

#if !DT_NODE_EXISTS(ADC_USER_NODE) || !DT_NODE_HAS_PROP(ADC_USER_NODE, io_channels)
#error "The /zephyr,user node must have an io-channels property"
#endif

#define NUM_CHANNELS       2
#define SAMPLINGS          8
#define SAMPLE_INTERVAL_US 1000U
#define BURST_PERIOD       K_SECONDS(1)

BUILD_ASSERT(DT_PROP_LEN(ADC_USER_NODE, io_channels) == NUM_CHANNELS,
	     "/zephyr,user io-channels must list exactly two channels");

static const struct adc_dt_spec adc_channels[NUM_CHANNELS] = {
	ADC_DT_SPEC_GET_BY_IDX(ADC_USER_NODE, 0),
	ADC_DT_SPEC_GET_BY_IDX(ADC_USER_NODE, 1),
};

/* Room for every sampling of every channel. */
static int16_t sample_buf[SAMPLINGS * NUM_CHANNELS];

K_TIMER_DEFINE(burst_timer, NULL, NULL);

static int setup_channels(void)
{
	if (adc_channels[0].dev != adc_channels[1].dev) {
		printk("both channels must belong to the same ADC controller\n");
		return -EINVAL;
	}
	if (adc_channels[0].channel_id == adc_channels[1].channel_id) {
		printk("the two io-channels entries use the same channel\n");
		return -EINVAL;
	}

	for (size_t i = 0; i < NUM_CHANNELS; i++) {
		const struct adc_dt_spec *spec = &adc_channels[i];
		int err;

		if (!adc_is_ready_dt(spec)) {
			printk("ADC controller %s not ready\n", spec->dev->name);
			return -ENODEV;
		}

		err = adc_channel_setup_dt(spec);
		if (err < 0) {
			printk("channel %u setup failed (%d)\n", spec->channel_id, err);
			return err;
		}
	}

	return 0;
}

/*
 * The driver stores the results of one sampling in ascending order of
 * channel id, so find where each io-channels entry lands in a sampling.
 */
static size_t slot_of(size_t idx)
{
	size_t slot = 0;

	for (size_t i = 0; i < NUM_CHANNELS; i++) {
		if (adc_channels[i].channel_id < adc_channels[idx].channel_id) {
			slot++;
		}
	}
	return slot;
}

static int32_t channel_average(size_t idx)
{
	size_t slot = slot_of(idx);
	int32_t sum = 0;

	for (size_t s = 0; s < SAMPLINGS; s++) {
		sum += sample_buf[slot * SAMPLINGS + s];
	}
	return sum / SAMPLINGS;
}

int main(void)
{
	struct adc_sequence_options options = {
		.interval_us = SAMPLE_INTERVAL_US,
		.callback = NULL,
		.user_data = NULL,
		.extra_samplings = SAMPLINGS - 1,
	};
	struct adc_sequence sequence = {
		.options = &options,
		.buffer = sample_buf,
		.buffer_size = sizeof(sample_buf),
	};
	bool calibrated = false;
	int err;

	err = setup_channels();
	if (err < 0) {
		return err;
	}

	/* Channel set, resolution and oversampling from the devicetree. */
	err = adc_sequence_init_dt(&adc_channels[0], &sequence);
	if (err < 0) {
		printk("sequence init failed (%d)\n", err);
		return err;
	}
	sequence.channels |= BIT(adc_channels[1].channel_id);

	printk("adc burst ready\n");

	k_timer_start(&burst_timer, K_NO_WAIT, BURST_PERIOD);

	while (1) {
		k_timer_status_sync(&burst_timer);

		sequence.calibrate = !calibrated;

		err = adc_read_dt(&adc_channels[0], &sequence);
		if (err < 0) {
			printk("burst failed (%d)\n", err);
			continue;
		}

		calibrated = true;

		printk("ch0=%d ch1=%d\n", (int)channel_average(0),
		       (int)channel_average(1));
	}

	return 0;
}
