#include <stdbool.h>
#include <zephyr/kernel.h>
#include <zephyr/drivers/adc.h>

#define USER_NODE DT_PATH(zephyr_user)

static const struct adc_dt_spec chan = ADC_DT_SPEC_GET_BY_IDX(USER_NODE, 0);
static int16_t buf[1];

static int sampler_init(struct adc_sequence *seq)
{
	int ret;

	if (!device_is_ready(chan.dev)) {
		return -ENODEV;
	}
	ret = adc_channel_setup_dt(&chan);
	if (ret != 0) {
		return ret;
	}
	return adc_sequence_init_dt(&chan, seq);
}

int main(void)
{
	struct adc_sequence seq = {
		.buffer = buf,
		.buffer_size = sizeof(buf),
	};
	int ret = sampler_init(&seq);

	if (ret != 0) {
		printk("sampler init failed (%d)\n", ret);
		return ret;
	}
	printk("adc sampler ready\n");

	while (true) {
		k_msleep(500);

		ret = adc_read_dt(&chan, &seq);
		if (ret) {
			printk("sample failed (%d)\n", ret);
			continue;
		}

		int32_t value = buf[0];

		ret = adc_raw_to_millivolts_dt(&chan, &value);
		if (ret == 0) {
			printk("raw=%d mv=%d\n", buf[0], value);
		} else {
			printk("raw=%d\n", buf[0]);
		}
	}
	return 0;
}
