#include <stdbool.h>
#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/adc.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>

#define NUM_CHANNELS  2
#define NUM_SAMPLINGS 8

static const struct adc_dt_spec inputs[NUM_CHANNELS] = {
	ADC_DT_SPEC_GET_BY_IDX(DT_PATH(zephyr_user), 0),
	ADC_DT_SPEC_GET_BY_IDX(DT_PATH(zephyr_user), 1),
};

static int16_t samples[NUM_SAMPLINGS * NUM_CHANNELS];

int main(void)
{
	struct adc_sequence_options options = {
		.interval_us = 1000,
		.extra_samplings = NUM_SAMPLINGS - 1,
	};
	struct adc_sequence sequence = {
		.options = &options,
		.buffer = samples,
		.buffer_size = sizeof(samples),
		.calibrate = true,
	};
	int err;

	for (size_t i = 0; i < NUM_CHANNELS; i++) {
		if (!adc_is_ready_dt(&inputs[i])) {
			printk("ADC controller %s not ready\n", inputs[i].dev->name);
			return -ENODEV;
		}

		err = adc_channel_setup_dt(&inputs[i]);
		if (err < 0) {
			printk("channel %d setup failed: %d\n", inputs[i].channel_id, err);
			return err;
		}
	}

	err = adc_sequence_init_dt(&inputs[0], &sequence);
	if (err < 0) {
		printk("sequence init failed: %d\n", err);
		return err;
	}
	sequence.channels |= BIT(inputs[1].channel_id);

	printk("adc burst ready\n");

	while (1) {
		int32_t sum[NUM_CHANNELS] = {0};

		err = adc_read_dt(&inputs[0], &sequence);
		if (err < 0) {
			printk("burst failed: %d\n", err);
			k_sleep(K_SECONDS(1));
			continue;
		}
		sequence.calibrate = false;

		for (size_t s = 0; s < NUM_SAMPLINGS; s++) {
			for (size_t ch = 0; ch < NUM_CHANNELS; ch++) {
				sum[ch] += samples[s * NUM_CHANNELS + ch];
			}
		}

		printk("ch0=%d ch1=%d\n", sum[0] / NUM_SAMPLINGS, sum[1] / NUM_SAMPLINGS);

		k_sleep(K_SECONDS(1));
	}
	return 0;
}
