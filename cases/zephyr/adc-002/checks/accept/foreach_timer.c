/*
 * Two-channel ADC bursts: every second, one adc_read_dt() request samples
 * both io-channels of /zephyr,user eight times, 1 ms apart; the first
 * successful burst also calibrates the converter's offset.
 */
#include <zephyr/drivers/adc.h>
#include <zephyr/devicetree.h>
#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>

#define USER_NODE     DT_PATH(zephyr_user)
#define INPUT_COUNT   2
#define BURST_LEN     8
#define BURST_GAP_US  1000

BUILD_ASSERT(DT_PROP_LEN(USER_NODE, io_channels) == INPUT_COUNT,
	     "/zephyr,user must list exactly two io-channels");

#define SPEC_FROM_IO_CHANNEL(node_id, prop, idx) ADC_DT_SPEC_GET_BY_IDX(node_id, idx)

static const struct adc_dt_spec adc_inputs[INPUT_COUNT] = {
	DT_FOREACH_PROP_ELEM_SEP(USER_NODE, io_channels, SPEC_FROM_IO_CHANNEL, (,))
};

/* One frame per sampling; inside a frame the driver stores the samples in
 * ascending channel-id order.
 */
static int16_t frames[BURST_LEN * INPUT_COUNT];

static const struct adc_sequence_options repeat_opts = {
	.extra_samplings = BURST_LEN - 1,
	.interval_us = BURST_GAP_US,
};

static struct adc_sequence burst_seq = {
	.options = &repeat_opts,
	.buffer = frames,
	.buffer_size = sizeof(frames),
	.calibrate = true,
};

/* Position of each io-channel entry inside a frame. */
static size_t frame_slot[INPUT_COUNT];

K_TIMER_DEFINE(burst_tick, NULL, NULL);

static int prepare_inputs(void)
{
	for (size_t i = 0; i < INPUT_COUNT; i++) {
		const struct adc_dt_spec *in = &adc_inputs[i];
		int ret;

		if (!adc_is_ready_dt(in)) {
			printk("ADC %s is not ready\n", in->dev->name);
			return -ENODEV;
		}
		ret = adc_channel_setup_dt(in);
		if (ret != 0) {
			printk("cannot configure ADC channel %d (%d)\n", in->channel_id, ret);
			return ret;
		}
		burst_seq.channels |= BIT(in->channel_id);
	}

	/* Resolution and oversampling are the devicetree's (shared by both). */
	burst_seq.resolution = adc_inputs[0].resolution;
	burst_seq.oversampling = adc_inputs[0].oversampling;

	for (size_t i = 0; i < INPUT_COUNT; i++) {
		frame_slot[i] = 0;
		for (size_t j = 0; j < INPUT_COUNT; j++) {
			if (adc_inputs[j].channel_id < adc_inputs[i].channel_id) {
				frame_slot[i]++;
			}
		}
	}
	return 0;
}

static void report_averages(void)
{
	int32_t acc[INPUT_COUNT] = {0};

	for (size_t n = 0; n < BURST_LEN; n++) {
		const int16_t *frame = &frames[n * INPUT_COUNT];

		for (size_t i = 0; i < INPUT_COUNT; i++) {
			acc[i] += frame[frame_slot[i]];
		}
	}
	printk("ch0=%d ch1=%d\n", (int)(acc[0] / BURST_LEN), (int)(acc[1] / BURST_LEN));
}

int main(void)
{
	int ret = prepare_inputs();

	if (ret != 0) {
		return ret;
	}
	printk("adc burst ready\n");

	k_timer_start(&burst_tick, K_NO_WAIT, K_SECONDS(1));
	for (;;) {
		k_timer_status_sync(&burst_tick);

		ret = adc_read_dt(&adc_inputs[0], &burst_seq);
		if (ret != 0) {
			printk("burst error %d\n", ret);
			continue;
		}
		/* The offset is calibrated now; later bursts skip it. */
		burst_seq.calibrate = false;
		report_averages();
	}
	return 0;
}
