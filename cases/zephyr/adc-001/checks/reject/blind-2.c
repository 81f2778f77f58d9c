/* defect: on a failed read the loop 'continue's past the k_msleep(), so a persistent read error retries immediately in a tight loop instead of waiting for the next 500 ms period.
 * breaks: "A failed sample must be reported (with the error code) and must not print a value; sampling then continues with the next period."
 * must_fail: failed_read_waits_next_period
 */
#include <zephyr/kernel.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/adc.h>
#include <zephyr/sys/printk.h>

#if !DT_NODE_HAS_PROP(DT_PATH(zephyr_user), io_channels)
#error "/zephyr,user must have an io-channels property"
#endif

static const struct adc_dt_spec vin = ADC_DT_SPEC_GET(DT_PATH(zephyr_user));

int main(void)
{
	int16_t sample = 0;
	struct adc_sequence seq = {
		.buffer = &sample,
		.buffer_size = sizeof(sample),
	};
	int ret;

	if (!adc_is_ready_dt(&vin)) {
		printk("ADC device not ready\n");
		return -ENODEV;
	}

	ret = adc_channel_setup_dt(&vin);
	if (ret != 0) {
		printk("adc_channel_setup_dt failed: %d\n", ret);
		return ret;
	}

	ret = adc_sequence_init_dt(&vin, &seq);
	if (ret != 0) {
		printk("adc_sequence_init_dt failed: %d\n", ret);
		return ret;
	}

	printk("adc sampler ready\n");

	for (;;) {
		ret = adc_read_dt(&vin, &seq);
		if (ret != 0) {
			printk("adc read error: %d\n", ret);
			continue;
		}

		int32_t raw = vin.channel_cfg.differential ? (int32_t)sample
							   : (int32_t)(uint16_t)sample;
		int32_t mv = raw;

		if (adc_raw_to_millivolts_dt(&vin, &mv) == 0) {
			printk("raw=%d mv=%d\n", raw, mv);
		} else {
			printk("raw=%d\n", raw);
		}

		k_msleep(500);
	}

	return 0;
}
