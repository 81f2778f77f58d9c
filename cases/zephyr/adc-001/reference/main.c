#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/adc.h>
#include <zephyr/sys/printk.h>

static const struct adc_dt_spec vsense = ADC_DT_SPEC_GET(DT_PATH(zephyr_user));

int main(void)
{
	int16_t sample;
	struct adc_sequence sequence = {
		.buffer = &sample,
		.buffer_size = sizeof(sample),
	};
	int err;

	if (!adc_is_ready_dt(&vsense)) {
		printk("ADC controller %s not ready\n", vsense.dev->name);
		return -ENODEV;
	}

	err = adc_channel_setup_dt(&vsense);
	if (err < 0) {
		printk("channel %d setup failed: %d\n", vsense.channel_id, err);
		return err;
	}

	err = adc_sequence_init_dt(&vsense, &sequence);
	if (err < 0) {
		printk("sequence init failed: %d\n", err);
		return err;
	}

	printk("adc sampler ready\n");

	while (1) {
		int32_t mv;

		err = adc_read_dt(&vsense, &sequence);
		if (err < 0) {
			printk("adc read failed: %d\n", err);
			k_sleep(K_MSEC(500));
			continue;
		}

		mv = sample;
		err = adc_raw_to_millivolts_dt(&vsense, &mv);
		if (err < 0) {
			printk("raw=%d\n", sample);
		} else {
			printk("raw=%d mv=%d\n", sample, mv);
		}

		k_sleep(K_MSEC(500));
	}
	return 0;
}
