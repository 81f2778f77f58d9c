/* defect: the return value of adc_raw_to_millivolts_dt() is ignored, so when the reference/gain cannot be converted an unconverted value is still printed as mv=.
 * breaks: "Some reference/gain combinations cannot be converted to millivolts; in that case print `raw=<value>` only and keep sampling."
 * must_fail: millivolt_conversion_checked
 */
#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/adc.h>
#include <zephyr/sys/printk.h>

#define ZEPHYR_USER_NODE DT_PATH(zephyr_user)

#if !DT_NODE_EXISTS(ZEPHYR_USER_NODE) || !DT_NODE_HAS_PROP(ZEPHYR_USER_NODE, io_channels)
#error "No suitable devicetree overlay specified (zephyr,user io-channels)"
#endif

#define SAMPLE_PERIOD_MS 500

static const struct adc_dt_spec adc_chan = ADC_DT_SPEC_GET_BY_IDX(ZEPHYR_USER_NODE, 0);

int main(void)
{
	int err;
	uint16_t buf;
	struct adc_sequence sequence = {
		.buffer = &buf,
		.buffer_size = sizeof(buf),
	};

	if (!adc_is_ready_dt(&adc_chan)) {
		printk("ADC controller %s not ready\n", adc_chan.dev->name);
		return -ENODEV;
	}

	err = adc_channel_setup_dt(&adc_chan);
	if (err < 0) {
		printk("Could not setup channel #%d (%d)\n", adc_chan.channel_id, err);
		return err;
	}

	err = adc_sequence_init_dt(&adc_chan, &sequence);
	if (err < 0) {
		printk("Could not initialise ADC sequence (%d)\n", err);
		return err;
	}

	printk("adc sampler ready\n");

	int64_t next = k_uptime_get();

	while (1) {
		err = adc_read_dt(&adc_chan, &sequence);
		if (err < 0) {
			printk("ADC read failed (%d)\n", err);
		} else {
			int32_t raw;
			int32_t val_mv;

			if (adc_chan.channel_cfg.differential) {
				raw = (int32_t)((int16_t)buf);
			} else {
				raw = (int32_t)buf;
			}

			val_mv = raw;
			adc_raw_to_millivolts_dt(&adc_chan, &val_mv);
			printk("raw=%d mv=%d\n", raw, val_mv);
		}

		next += SAMPLE_PERIOD_MS;
		k_sleep(K_TIMEOUT_ABS_MS(next));
	}

	return 0;
}
