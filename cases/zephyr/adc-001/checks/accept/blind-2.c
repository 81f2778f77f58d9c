#include <zephyr/kernel.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/adc.h>
#include <zephyr/sys/printk.h>

#if !DT_NODE_HAS_PROP(DT_PATH(zephyr_user), io_channels)
#error "/zephyr,user must have an io-channels property"
#endif

static const struct adc_dt_spec vin = ADC_DT_SPEC_GET(DT_PATH(zephyr_user));

K_TIMER_DEFINE(sample_timer, NULL, NULL);

static int sampler_init(struct adc_sequence *seq)
{
	int ret;

	if (!device_is_ready(vin.dev)) {
		printk("ADC device not ready\n");
		return -ENODEV;
	}

	ret = adc_channel_setup_dt(&vin);
	if (ret != 0) {
		printk("adc_channel_setup_dt failed: %d\n", ret);
		return ret;
	}

	ret = adc_sequence_init_dt(&vin, seq);
	if (ret != 0) {
		printk("adc_sequence_init_dt failed: %d\n", ret);
		return ret;
	}

	return 0;
}

static void sample_once(struct adc_sequence *seq, const int16_t *sample)
{
	int ret = adc_read_dt(&vin, seq);

	if (ret != 0) {
		printk("adc read error: %d\n", ret);
		return;
	}

	int32_t raw = vin.channel_cfg.differential ? (int32_t)*sample
						   : (int32_t)(uint16_t)*sample;
	int32_t mv = raw;

	if (adc_raw_to_millivolts_dt(&vin, &mv) == 0) {
		printk("raw=%d mv=%d\n", raw, mv);
	} else {
		printk("raw=%d\n", raw);
	}
}

int main(void)
{
	int16_t sample = 0;
	struct adc_sequence seq = {
		.buffer = &sample,
		.buffer_size = sizeof(sample),
	};
	int ret;

	ret = sampler_init(&seq);
	if (ret != 0) {
		return ret;
	}

	printk("adc sampler ready\n");

	k_timer_start(&sample_timer, K_NO_WAIT, K_MSEC(500));

	for (;;) {
		k_timer_status_sync(&sample_timer);
		sample_once(&seq, &sample);
	}

	return 0;
}
