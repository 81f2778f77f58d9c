#include <stdbool.h>
#include <stdint.h>

#include "esp_adc/adc_cali_scheme.h"
#include "esp_adc/adc_oneshot.h"
#include "esp_log.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"

#define VBAT_PIN         34
#define VBAT_ATTEN       ADC_ATTEN_DB_12
#define REPORT_SAMPLES   64
#define REPORT_TOTAL     10

static const char *TAG = "battery";
static const int kDividerRatio = 2;

typedef struct {
	adc_oneshot_unit_handle_t unit;
	adc_unit_t unit_id;
	adc_channel_t channel;
	adc_cali_handle_t cali;
	bool calibrated;
} vbat_t;

static esp_err_t vbat_open(vbat_t *vb)
{
	esp_err_t err = adc_oneshot_io_to_channel(VBAT_PIN, &vb->unit_id, &vb->channel);
	if (err != ESP_OK) {
		return err;
	}

	adc_oneshot_unit_init_cfg_t ucfg = { 0 };
	ucfg.unit_id = vb->unit_id;
	err = adc_oneshot_new_unit(&ucfg, &vb->unit);
	if (err != ESP_OK) {
		return err;
	}

	adc_oneshot_chan_cfg_t ccfg = {
		.atten = VBAT_ATTEN,
	};
	err = adc_oneshot_config_channel(vb->unit, vb->channel, &ccfg);
	if (err != ESP_OK) {
		adc_oneshot_del_unit(vb->unit);
		vb->unit = NULL;
		return err;
	}
	return ESP_OK;
}

/* true when a calibration scheme could be created for this chip. */
static bool vbat_cali_init(adc_unit_t unit, adc_channel_t channel, adc_atten_t atten, adc_cali_handle_t *out)
{
	adc_cali_handle_t handle = NULL;
	esp_err_t ret = ESP_ERR_NOT_SUPPORTED;
	bool done = false;

#if ADC_CALI_SCHEME_CURVE_FITTING_SUPPORTED
	if (!done) {
		adc_cali_curve_fitting_config_t cfg = {
			.unit_id = unit,
			.chan = channel,
			.atten = atten,
		};
		ret = adc_cali_create_scheme_curve_fitting(&cfg, &handle);
		done = (ret == ESP_OK);
	}
#endif
#if ADC_CALI_SCHEME_LINE_FITTING_SUPPORTED
	if (!done) {
		adc_cali_line_fitting_config_t cfg = {
			.unit_id = unit,
			.atten = atten,
		};
		ret = adc_cali_create_scheme_line_fitting(&cfg, &handle);
		done = (ret == ESP_OK);
	}
#endif
	(void)unit;
	(void)channel;
	(void)atten;
	if (!done) {
		ESP_LOGW(TAG, "ADC calibration unavailable (%s): raw readings only", esp_err_to_name(ret));
	}
	*out = handle;
	return done;
}

static void vbat_cali_deinit(adc_cali_handle_t handle)
{
#if ADC_CALI_SCHEME_CURVE_FITTING_SUPPORTED
	adc_cali_delete_scheme_curve_fitting(handle);
#elif ADC_CALI_SCHEME_LINE_FITTING_SUPPORTED
	adc_cali_delete_scheme_line_fitting(handle);
#else
	(void)handle;
#endif
}

static bool vbat_sample(const vbat_t *vb, int *mean_raw)
{
	int total = 0;

	for (int i = 0; i < REPORT_SAMPLES; i++) {
		int raw = 0;

		if (adc_oneshot_read(vb->unit, vb->channel, &raw) != ESP_OK) {
			return false;
		}
		total += raw;
	}
	*mean_raw = total / REPORT_SAMPLES;
	return true;
}

void app_main(void)
{
	vbat_t vb = { 0 };

	esp_err_t err = vbat_open(&vb);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "ADC setup failed: %s", esp_err_to_name(err));
		return;
	}
	vb.calibrated = vbat_cali_init(vb.unit_id, vb.channel, VBAT_ATTEN, &vb.cali);

	for (int r = 0; r < REPORT_TOTAL; r++) {
		int mean_raw;

		if (!vbat_sample(&vb, &mean_raw)) {
			ESP_LOGE(TAG, "ADC conversion failed");
			break;
		}
		if (vb.calibrated) {
			int pin_mv = 0;

			if (adc_cali_raw_to_voltage(vb.cali, mean_raw, &pin_mv) != ESP_OK) {
				ESP_LOGE(TAG, "calibration failed");
				break;
			}
			int battery_mv = kDividerRatio * pin_mv;
			ESP_LOGI(TAG, "battery: %d mV", battery_mv);
		} else {
			ESP_LOGI(TAG, "battery: raw %d (uncalibrated)", mean_raw);
		}
		vTaskDelay(pdMS_TO_TICKS(2000));
	}

	if (vb.calibrated) {
		vbat_cali_deinit(vb.cali);
	}
	adc_oneshot_del_unit(vb.unit);
	ESP_LOGI(TAG, "monitor stopped");
}
