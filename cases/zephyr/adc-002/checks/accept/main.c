#include <zephyr/kernel.h>
#include <zephyr/drivers/adc.h>

#define USER DT_PATH(zephyr_user)
#define BURST 8

static const struct adc_dt_spec ch_a = ADC_DT_SPEC_GET_BY_IDX(USER, 0);
static const struct adc_dt_spec ch_b = ADC_DT_SPEC_GET_BY_IDX(USER, 1);

static uint16_t raw[BURST][2];

static struct adc_sequence_options burst_opts = {
	.extra_samplings = BURST - 1,
	.interval_us = 1000U,
};

int main(void)
{
	struct adc_sequence seq = {
		.options = &burst_opts,
		.buffer = raw,
		.buffer_size = sizeof(raw),
		.calibrate = true,
	};
	int rc;

	if (!adc_is_ready_dt(&ch_a) || !adc_is_ready_dt(&ch_b)) {
		return -ENODEV;
	}
	rc = adc_channel_setup_dt(&ch_a);
	if (rc) {
		return rc;
	}
	rc = adc_channel_setup_dt(&ch_b);
	if (rc) {
		return rc;
	}
	rc = adc_sequence_init_dt(&ch_a, &seq);
	if (rc) {
		return rc;
	}
	seq.channels = BIT(ch_a.channel_id) | BIT(ch_b.channel_id);
	printk("adc burst ready\n");

	for (;;) {
		rc = adc_read(ch_a.dev, &seq);
		if (rc == 0) {
			uint32_t a = 0, b = 0;

			seq.calibrate = false;
			for (int i = 0; i < BURST; i++) {
				a += raw[i][0];
				b += raw[i][1];
			}
			printk("ch0=%u ch1=%u\n", a / BURST, b / BURST);
		} else {
			printk("burst error %d\n", rc);
		}
		k_msleep(1000);
	}
	return 0;
}
