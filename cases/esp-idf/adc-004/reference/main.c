#include <stdint.h>

#include "esp_adc/adc_cali.h"
#include "esp_adc/adc_cali_scheme.h"
#include "esp_adc/adc_oneshot.h"
#include "esp_err.h"
#include "esp_log.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"

#define BATTERY_GPIO      34
#define BATTERY_ATTEN     ADC_ATTEN_DB_12       /* the pin sees up to 2.1 V */
#define BATTERY_BITWIDTH  ADC_BITWIDTH_DEFAULT
#define DIVIDER_RATIO     2                     /* 100 k over 100 k */
#define SAMPLES           64
#define REPORTS           10
#define REPORT_PERIOD_MS  2000

static const char *TAG = "battery";

/* Creates the calibration scheme this target provides. Fails (typically with
 * ESP_ERR_NOT_SUPPORTED) when the target has none or the chip carries no
 * calibration data in eFuse. */
static esp_err_t battery_cali_create(adc_unit_t unit, adc_channel_t chan, adc_cali_handle_t *out)
{
#if ADC_CALI_SCHEME_CURVE_FITTING_SUPPORTED
	const adc_cali_curve_fitting_config_t cfg = {
		.unit_id = unit,
		.chan = chan,
		.atten = BATTERY_ATTEN,
		.bitwidth = BATTERY_BITWIDTH,
	};
	return adc_cali_create_scheme_curve_fitting(&cfg, out);
#elif ADC_CALI_SCHEME_LINE_FITTING_SUPPORTED
	const adc_cali_line_fitting_config_t cfg = {
		.unit_id = unit,
		.atten = BATTERY_ATTEN,
		.bitwidth = BATTERY_BITWIDTH,
	};
	(void)chan;
	return adc_cali_create_scheme_line_fitting(&cfg, out);
#else
	(void)unit;
	(void)chan;
	(void)out;
	return ESP_ERR_NOT_SUPPORTED;
#endif
}

/* A handle must go back to the scheme that created it. */
static esp_err_t battery_cali_delete(adc_cali_handle_t cali)
{
#if ADC_CALI_SCHEME_CURVE_FITTING_SUPPORTED
	return adc_cali_delete_scheme_curve_fitting(cali);
#elif ADC_CALI_SCHEME_LINE_FITTING_SUPPORTED
	return adc_cali_delete_scheme_line_fitting(cali);
#else
	(void)cali;
	return ESP_ERR_NOT_SUPPORTED;
#endif
}

/* Mean raw count of SAMPLES conversions. */
static esp_err_t battery_read_raw_average(adc_oneshot_unit_handle_t unit, adc_channel_t chan, int *avg_raw)
{
	uint32_t sum = 0;

	for (int i = 0; i < SAMPLES; i++) {
		int raw;

		esp_err_t err = adc_oneshot_read(unit, chan, &raw);
		if (err != ESP_OK) {
			return err;
		}
		sum += (uint32_t)raw;
	}
	*avg_raw = (int)(sum / SAMPLES);
	return ESP_OK;
}

void app_main(void)
{
	adc_oneshot_unit_handle_t unit = NULL;
	adc_cali_handle_t cali = NULL;
	adc_unit_t unit_id;
	adc_channel_t chan;

	esp_err_t err = adc_oneshot_io_to_channel(BATTERY_GPIO, &unit_id, &chan);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "GPIO%d is not an ADC input: %s", BATTERY_GPIO, esp_err_to_name(err));
		return;
	}

	const adc_oneshot_unit_init_cfg_t unit_cfg = {
		.unit_id = unit_id,
		.ulp_mode = ADC_ULP_MODE_DISABLE,
	};
	err = adc_oneshot_new_unit(&unit_cfg, &unit);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "ADC unit init failed: %s", esp_err_to_name(err));
		return;
	}

	const adc_oneshot_chan_cfg_t chan_cfg = {
		.atten = BATTERY_ATTEN,
		.bitwidth = BATTERY_BITWIDTH,
	};
	err = adc_oneshot_config_channel(unit, chan, &chan_cfg);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "ADC channel config failed: %s", esp_err_to_name(err));
		ESP_ERROR_CHECK_WITHOUT_ABORT(adc_oneshot_del_unit(unit));
		return;
	}

	err = battery_cali_create(unit_id, chan, &cali);
	if (err != ESP_OK) {
		ESP_LOGW(TAG, "no ADC calibration (%s), reporting raw readings", esp_err_to_name(err));
		cali = NULL;
	}

	for (int n = 0; n < REPORTS; n++) {
		int avg_raw;

		err = battery_read_raw_average(unit, chan, &avg_raw);
		if (err != ESP_OK) {
			ESP_LOGE(TAG, "ADC read failed: %s", esp_err_to_name(err));
			break;
		}
		if (cali != NULL) {
			int pin_mv;

			err = adc_cali_raw_to_voltage(cali, avg_raw, &pin_mv);
			if (err != ESP_OK) {
				ESP_LOGE(TAG, "calibrated conversion failed: %s", esp_err_to_name(err));
				break;
			}
			ESP_LOGI(TAG, "battery: %d mV", pin_mv * DIVIDER_RATIO);
		} else {
			ESP_LOGI(TAG, "battery: raw %d (uncalibrated)", avg_raw);
		}
		vTaskDelay(pdMS_TO_TICKS(REPORT_PERIOD_MS));
	}

	if (cali != NULL) {
		ESP_ERROR_CHECK_WITHOUT_ABORT(battery_cali_delete(cali));
	}
	ESP_ERROR_CHECK_WITHOUT_ABORT(adc_oneshot_del_unit(unit));
	ESP_LOGI(TAG, "monitor stopped");
}
