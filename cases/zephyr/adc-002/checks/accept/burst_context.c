/*
 * ADC burst sampler with all of its state in one context object: the two
 * io-channels of /zephyr,user, the repeated-sampling options, the sequence,
 * the sample frames and whether the offset has been calibrated yet.
 */
#include <stdbool.h>
#include <zephyr/kernel.h>
#include <zephyr/drivers/adc.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/time_units.h>
#include <zephyr/sys/util.h>

#define SAMPLINGS 8

struct adc_burst {
	struct adc_dt_spec first;
	struct adc_dt_spec second;
	struct adc_sequence_options opts;
	struct adc_sequence seq;
	int16_t raw[SAMPLINGS][2];   /* one row per sampling, one column per channel */
	bool calibrated;
};

static struct adc_burst burst = {
	.first = ADC_DT_SPEC_GET_BY_IDX(DT_PATH(zephyr_user), 0),
	.second = ADC_DT_SPEC_GET_BY_IDX(DT_PATH(zephyr_user), 1),
	.opts = {
		.interval_us = USEC_PER_MSEC,
		.extra_samplings = SAMPLINGS - 1,
	},
};

static int burst_init(struct adc_burst *b)
{
	int err;

	if (!adc_is_ready_dt(&b->first) || !adc_is_ready_dt(&b->second)) {
		return -ENODEV;
	}

	err = adc_channel_setup_dt(&b->first);
	if (err < 0) {
		return err;
	}
	err = adc_channel_setup_dt(&b->second);
	if (err < 0) {
		return err;
	}

	/* Channel mask, resolution and oversampling of the first input ... */
	err = adc_sequence_init_dt(&b->first, &b->seq);
	if (err < 0) {
		return err;
	}
	/* ... plus the second input in the same request. */
	b->seq.channels |= BIT(b->second.channel_id);
	b->seq.options = &b->opts;
	b->seq.buffer = b->raw;
	b->seq.buffer_size = sizeof(b->raw);
	return 0;
}

static int burst_take(struct adc_burst *b)
{
	/* Calibrate until one burst has succeeded with calibration. */
	b->seq.calibrate = !b->calibrated;

	int err = adc_read_dt(&b->first, &b->seq);

	if (err < 0) {
		return err;
	}
	b->calibrated = true;
	return 0;
}

static void burst_print(const struct adc_burst *b)
{
	int total0 = 0;
	int total1 = 0;

	for (int row = 0; row < SAMPLINGS; row++) {
		total0 += b->raw[row][0];
		total1 += b->raw[row][1];
	}
	printk("ch0=%d ch1=%d\n", total0 / SAMPLINGS, total1 / SAMPLINGS);
}

int main(void)
{
	int err = burst_init(&burst);

	if (err < 0) {
		printk("ADC setup failed: %d\n", err);
		return err;
	}
	printk("adc burst ready\n");

	while (true) {
		err = burst_take(&burst);
		if (err < 0) {
			printk("burst failed: %d\n", err);
		} else {
			burst_print(&burst);
		}
		k_sleep(K_SECONDS(1));
	}
	return 0;
}
