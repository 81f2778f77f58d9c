#include <zephyr/kernel.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/adc.h>
#include <zephyr/sys/printk.h>

#define USER_NODE DT_PATH(zephyr_user)

static const struct adc_dt_spec vbat = ADC_DT_SPEC_GET_BY_NAME(USER_NODE, vbat);
static const struct adc_dt_spec ntc = ADC_DT_SPEC_GET_BY_NAME(USER_NODE, ntc);

BUILD_ASSERT(DT_IO_CHANNELS_INPUT_BY_NAME(USER_NODE, vbat) == 2, "vbat is SAADC channel 2");
BUILD_ASSERT(DT_IO_CHANNELS_INPUT_BY_NAME(USER_NODE, ntc) == 3, "ntc is SAADC channel 3");

int main(void)
{
	int err = adc_channel_setup_dt(&vbat);

	if (err == 0) {
		err = adc_channel_setup_dt(&ntc);
	}
	printk("adc channels %d/%d: %d\n", vbat.channel_id, ntc.channel_id, err);
	return 0;
}
