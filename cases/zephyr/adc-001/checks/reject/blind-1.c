/* defect: the sequence is filled by hand with a hard-coded 12-bit resolution instead of using the devicetree resolution via adc_sequence_init_dt().
 * breaks: "Its ADC controller, channel number, gain, reference, acquisition time and resolution all come from the devicetree (the board overlay already describes the channel); do not hard-code any of them."
 * must_fail: sequence_initialised_from_spec
 */
#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/adc.h>
#include <zephyr/sys/printk.h>

#define ZEPHYR_USER_NODE DT_PATH(zephyr_user)

#if !DT_NODE_HAS_PROP(ZEPHYR_USER_NODE, io_channels)
#error "No suitable devicetree overlay specified"
#endif

static const struct adc_dt_spec adc_chan = ADC_DT_SPEC_GET_BY_IDX(ZEPHYR_USER_NODE, 0);

int main(void)
{
	int err;
	uint16_t buf;
	struct adc_sequence sequence = {
		.channels = BIT(adc_chan.channel_id),
		.buffer = &buf,
		.buffer_size = sizeof(buf),
		.resolution = 12,
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

	printk("adc sampler ready\n");

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
			err = adc_raw_to_millivolts_dt(&adc_chan, &val_mv);
			if (err < 0) {
				printk("raw=%d\n", raw);
			} else {
				printk("raw=%d mv=%d\n", raw, val_mv);
			}
		}

		k_msleep(500);
	}

	return 0;
}
