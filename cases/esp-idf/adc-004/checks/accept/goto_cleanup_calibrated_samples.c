#include <stdbool.h>
#include <stdint.h>

#include "esp_adc/adc_oneshot.h"
#include "esp_check.h"
#include "esp_log.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"

static const char *TAG = "battery";

#define VBAT_UNIT        ADC_UNIT_1
#define VBAT_CHANNEL     ADC_CHANNEL_6          /* GPIO34 on ESP32 */
#define R_TOP_KOHM       100
#define R_BOTTOM_KOHM    100
#define N_SAMPLES        64
#define N_REPORTS        10

void app_main(void)
{
	esp_err_t ret = ESP_OK;
	adc_oneshot_unit_handle_t adc = NULL;
	adc_cali_handle_t cali = NULL;
	bool have_cali = false;

	adc_oneshot_unit_init_cfg_t init = {
		.unit_id = VBAT_UNIT,
	};
	ESP_GOTO_ON_ERROR(adc_oneshot_new_unit(&init, &adc), out, TAG, "cannot claim ADC unit");

	adc_oneshot_chan_cfg_t chan = {
		.bitwidth = ADC_BITWIDTH_DEFAULT,
		.atten = ADC_ATTEN_DB_12,
	};
	ESP_GOTO_ON_ERROR(adc_oneshot_config_channel(adc, VBAT_CHANNEL, &chan), out, TAG, "cannot configure channel");

#if ADC_CALI_SCHEME_CURVE_FITTING_SUPPORTED
	adc_cali_curve_fitting_config_t curve = {
		.unit_id = VBAT_UNIT,
		.chan = VBAT_CHANNEL,
		.atten = ADC_ATTEN_DB_12,
		.bitwidth = ADC_BITWIDTH_DEFAULT,
	};
	esp_err_t cal_err = adc_cali_create_scheme_curve_fitting(&curve, &cali);
#elif ADC_CALI_SCHEME_LINE_FITTING_SUPPORTED
	adc_cali_line_fitting_config_t line = {
		.unit_id = VBAT_UNIT,
		.atten = ADC_ATTEN_DB_12,
		.bitwidth = ADC_BITWIDTH_DEFAULT,
	};
	esp_err_t cal_err = adc_cali_create_scheme_line_fitting(&line, &cali);
#else
	esp_err_t cal_err = ESP_ERR_NOT_SUPPORTED;
#endif
	if (cal_err == ESP_OK) {
		have_cali = true;
	} else if (cal_err == ESP_ERR_NOT_SUPPORTED) {
		ESP_LOGW(TAG, "chip has no ADC calibration, reporting raw values");
	} else {
		ESP_LOGE(TAG, "calibration setup failed: %s", esp_err_to_name(cal_err));
		ret = cal_err;
		goto out;
	}

	for (int report = 0; report < N_REPORTS; report++) {
		int64_t acc = 0;

		for (int s = 0; s < N_SAMPLES; s++) {
			int v;

			if (have_cali) {
				ESP_GOTO_ON_ERROR(adc_oneshot_get_calibrated_result(adc, cali, VBAT_CHANNEL, &v), out, TAG, "read failed");
			} else {
				ESP_GOTO_ON_ERROR(adc_oneshot_read(adc, VBAT_CHANNEL, &v), out, TAG, "read failed");
			}
			acc += v;
		}

		int avg = (int)(acc / N_SAMPLES);

		if (have_cali) {
			ESP_LOGI(TAG, "battery: %d mV", avg * (R_TOP_KOHM + R_BOTTOM_KOHM) / R_BOTTOM_KOHM);
		} else {
			ESP_LOGI(TAG, "battery: raw %d (uncalibrated)", avg);
		}
		vTaskDelay(pdMS_TO_TICKS(2000));
	}

out:
	if (have_cali) {
#if ADC_CALI_SCHEME_CURVE_FITTING_SUPPORTED
		adc_cali_delete_scheme_curve_fitting(cali);
#elif ADC_CALI_SCHEME_LINE_FITTING_SUPPORTED
		adc_cali_delete_scheme_line_fitting(cali);
#endif
	}
	if (adc != NULL) {
		adc_oneshot_del_unit(adc);
	}
	if (ret != ESP_OK) {
		ESP_LOGE(TAG, "monitor failed: %s", esp_err_to_name(ret));
	}
	ESP_LOGI(TAG, "monitor stopped");
}
