#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sdkconfig.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"
#include "esp_err.h"
#include "esp_log.h"
#include "esp_adc/adc_oneshot.h"
#include "esp_adc/adc_cali.h"
#include "esp_adc/adc_cali_scheme.h"

static const char *TAG = "battery";

/* GPIO34 is ADC1 channel 6 on ESP32. */
#define BAT_ADC_UNIT        ADC_UNIT_1
#define BAT_ADC_CHANNEL     ADC_CHANNEL_6
/* Divider midpoint sees 1.5 V .. 2.1 V; only 12 dB covers that range. */
#define BAT_ADC_ATTEN       ADC_ATTEN_DB_12
#define NUM_SAMPLES         64
#define NUM_REPORTS         10
#define PERIOD_MS           2000
/* Two equal 100 kOhm resistors: battery voltage = 2 x pin voltage. */
#define DIVIDER_FACTOR      2

typedef esp_err_t (*cali_delete_fn_t)(adc_cali_handle_t handle);

void app_main(void)
{
    adc_oneshot_unit_handle_t adc = NULL;
    adc_cali_handle_t cali = NULL;
    cali_delete_fn_t cali_delete = NULL;
    esp_err_t err;
    bool ok = true;

    const adc_oneshot_unit_init_cfg_t unit_cfg = {
        .unit_id = BAT_ADC_UNIT,
    };
    err = adc_oneshot_new_unit(&unit_cfg, &adc);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "cannot create ADC unit: %s", esp_err_to_name(err));
        return;
    }

    const adc_oneshot_chan_cfg_t chan_cfg = {
        .bitwidth = ADC_BITWIDTH_DEFAULT,
        .atten = BAT_ADC_ATTEN,
    };
    err = adc_oneshot_config_channel(adc, BAT_ADC_CHANNEL, &chan_cfg);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "cannot configure ADC channel: %s", esp_err_to_name(err));
        ok = false;
    }

    /* ---- calibration: pick the scheme the target supports ---- */
    if (ok) {
#if ADC_CALI_SCHEME_CURVE_FITTING_SUPPORTED
        const adc_cali_curve_fitting_config_t cali_cfg = {
            .unit_id = BAT_ADC_UNIT,
            .chan = BAT_ADC_CHANNEL,
            .atten = BAT_ADC_ATTEN,
            .bitwidth = ADC_BITWIDTH_DEFAULT,
        };
        err = adc_cali_create_scheme_curve_fitting(&cali_cfg, &cali);
        if (err == ESP_OK) {
            cali_delete = adc_cali_delete_scheme_curve_fitting;
        }
#elif ADC_CALI_SCHEME_LINE_FITTING_SUPPORTED
        err = ESP_OK;
#if CONFIG_IDF_TARGET_ESP32
        /* Without eFuse Vref / Two Point data the ESP32 scheme could only use a
         * nominal reference voltage, which is not a real calibration. */
        adc_cali_line_fitting_efuse_val_t efuse_val = ADC_CALI_LINE_FITTING_EFUSE_VAL_DEFAULT_VREF;
        err = adc_cali_scheme_line_fitting_check_efuse(&efuse_val);
        if (err == ESP_OK && efuse_val == ADC_CALI_LINE_FITTING_EFUSE_VAL_DEFAULT_VREF) {
            err = ESP_ERR_NOT_SUPPORTED;
        }
#endif
        if (err == ESP_OK) {
            const adc_cali_line_fitting_config_t cali_cfg = {
                .unit_id = BAT_ADC_UNIT,
                .atten = BAT_ADC_ATTEN,
                .bitwidth = ADC_BITWIDTH_DEFAULT,
            };
            err = adc_cali_create_scheme_line_fitting(&cali_cfg, &cali);
            if (err == ESP_OK) {
                cali_delete = adc_cali_delete_scheme_line_fitting;
            }
        }
#else
        err = ESP_ERR_NOT_SUPPORTED;    /* target offers no calibration scheme */
#endif
        if (err == ESP_ERR_NOT_SUPPORTED) {
            cali = NULL;
            ESP_LOGW(TAG, "ADC calibration not available, reporting raw readings (uncalibrated)");
        } else if (err != ESP_OK) {
            cali = NULL;
            ESP_LOGE(TAG, "ADC calibration failed: %s", esp_err_to_name(err));
            ok = false;
        }
    }

    /* ---- measurement loop ---- */
    TickType_t wake = xTaskGetTickCount();
    for (int n = 0; ok && n < NUM_REPORTS; n++) {
        if (n > 0) {
            vTaskDelayUntil(&wake, pdMS_TO_TICKS(PERIOD_MS));
        }

        int64_t raw_sum = 0;
        int64_t mv_sum = 0;
        for (int i = 0; i < NUM_SAMPLES; i++) {
            int raw;
            err = adc_oneshot_read(adc, BAT_ADC_CHANNEL, &raw);
            if (err != ESP_OK) {
                ESP_LOGE(TAG, "ADC read failed: %s", esp_err_to_name(err));
                ok = false;
                break;
            }
            raw_sum += raw;
            if (cali != NULL) {
                int mv;
                err = adc_cali_raw_to_voltage(cali, raw, &mv);
                if (err != ESP_OK) {
                    ESP_LOGE(TAG, "ADC calibration conversion failed: %s", esp_err_to_name(err));
                    ok = false;
                    break;
                }
                mv_sum += mv;
            }
        }
        if (!ok) {
            break;
        }

        if (cali != NULL) {
            int pin_mv = (int)((mv_sum + NUM_SAMPLES / 2) / NUM_SAMPLES);
            ESP_LOGI(TAG, "battery: %d mV", pin_mv * DIVIDER_FACTOR);
        } else {
            int avg_raw = (int)((raw_sum + NUM_SAMPLES / 2) / NUM_SAMPLES);
            ESP_LOGI(TAG, "battery: raw %d (uncalibrated)", avg_raw);
        }
    }

    /* ---- release: calibration first, then the unit ---- */
    if (cali != NULL && cali_delete != NULL) {
        err = cali_delete(cali);
        if (err != ESP_OK) {
            ESP_LOGE(TAG, "cannot delete calibration scheme: %s", esp_err_to_name(err));
            ok = false;
        }
        cali = NULL;
    }
    err = adc_oneshot_del_unit(adc);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "cannot delete ADC unit: %s", esp_err_to_name(err));
        ok = false;
    }
    adc = NULL;

    if (ok) {
        ESP_LOGI(TAG, "monitor stopped");
    }
}
