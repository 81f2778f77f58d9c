/* defect: When an ADC read fails the code jumps straight to deleting the unit and never deletes the calibration scheme handle, leaking it.
 * breaks: "when the application finishes, normally or after a failure, every driver resource it obtained must have been given back."
 * must_fail: cali_deleted_with_matching_scheme
 */
/*
 * Battery monitor: Li-ion cell behind a 2:1 divider on GPIO34, ESP-IDF 5.3
 * oneshot ADC driver + calibration driver.
 */
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

#define BATTERY_GPIO            34
/* Pin sees 1.5 V .. 2.1 V: 12 dB attenuation is the only range covering it. */
#define BATTERY_ATTEN           ADC_ATTEN_DB_12
#define BATTERY_BITWIDTH        ADC_BITWIDTH_DEFAULT
#define SAMPLES_PER_REPORT      64
#define REPORT_PERIOD_MS        2000
#define REPORT_COUNT            10
/* battery -> 100k -> pin -> 100k -> GND: V_batt = V_pin * (100k + 100k) / 100k */
#define DIVIDER_NUM             2
#define DIVIDER_DEN             1

typedef enum {
    CALI_SCHEME_NONE = 0,
    CALI_SCHEME_CURVE,
    CALI_SCHEME_LINE,
} cali_scheme_t;

/*
 * Create a calibration handle for the given unit/channel/attenuation.
 * Returns ESP_OK with *scheme set, ESP_ERR_NOT_SUPPORTED when the chip or the
 * target has no calibration data, or another error on a real driver failure.
 */
static esp_err_t battery_cali_create(adc_unit_t unit, adc_channel_t chan, adc_atten_t atten,
                                     adc_cali_handle_t *out_handle, cali_scheme_t *scheme)
{
    esp_err_t ret = ESP_ERR_NOT_SUPPORTED;

    *out_handle = NULL;
    *scheme = CALI_SCHEME_NONE;

#if ADC_CALI_SCHEME_CURVE_FITTING_SUPPORTED
    adc_cali_curve_fitting_config_t curve_cfg = {
        .unit_id = unit,
        .chan = chan,
        .atten = atten,
        .bitwidth = BATTERY_BITWIDTH,
    };
    ret = adc_cali_create_scheme_curve_fitting(&curve_cfg, out_handle);
    if (ret == ESP_OK) {
        *scheme = CALI_SCHEME_CURVE;
        return ESP_OK;
    }
    if (ret != ESP_ERR_NOT_SUPPORTED) {
        return ret;
    }
#endif

#if ADC_CALI_SCHEME_LINE_FITTING_SUPPORTED
#if CONFIG_IDF_TARGET_ESP32
    /* On ESP32 the line-fitting scheme would fall back to a nominal Vref when
     * neither Two Point values nor Vref are burnt into eFuse: treat that as
     * "no calibration data". */
    adc_cali_line_fitting_efuse_val_t efuse_val;
    ret = adc_cali_scheme_line_fitting_check_efuse(&efuse_val);
    if (ret != ESP_OK) {
        return ret;
    }
    if (efuse_val == ADC_CALI_LINE_FITTING_EFUSE_VAL_DEFAULT_VREF) {
        return ESP_ERR_NOT_SUPPORTED;
    }
#endif
    adc_cali_line_fitting_config_t line_cfg = {
        .unit_id = unit,
        .atten = atten,
        .bitwidth = BATTERY_BITWIDTH,
    };
    ret = adc_cali_create_scheme_line_fitting(&line_cfg, out_handle);
    if (ret == ESP_OK) {
        *scheme = CALI_SCHEME_LINE;
        return ESP_OK;
    }
#endif

    (void)unit;
    (void)chan;
    (void)atten;
    *out_handle = NULL;
    return ret;
}

static esp_err_t battery_cali_delete(adc_cali_handle_t handle, cali_scheme_t scheme)
{
    switch (scheme) {
#if ADC_CALI_SCHEME_CURVE_FITTING_SUPPORTED
    case CALI_SCHEME_CURVE:
        return adc_cali_delete_scheme_curve_fitting(handle);
#endif
#if ADC_CALI_SCHEME_LINE_FITTING_SUPPORTED
    case CALI_SCHEME_LINE:
        return adc_cali_delete_scheme_line_fitting(handle);
#endif
    default:
        (void)handle;
        return ESP_OK;
    }
}

/* Average of SAMPLES_PER_REPORT raw conversions (sum fits easily in 32 bits). */
static esp_err_t battery_read_average(adc_oneshot_unit_handle_t adc, adc_channel_t chan, int *out_avg)
{
    uint32_t sum = 0;

    for (int i = 0; i < SAMPLES_PER_REPORT; i++) {
        int raw = 0;
        esp_err_t err = adc_oneshot_read(adc, chan, &raw);
        if (err != ESP_OK) {
            return err;
        }
        sum += (uint32_t)raw;
    }
    *out_avg = (int)((sum + SAMPLES_PER_REPORT / 2) / SAMPLES_PER_REPORT);
    return ESP_OK;
}

void app_main(void)
{
    adc_unit_t unit;
    adc_channel_t chan;
    adc_oneshot_unit_handle_t adc = NULL;
    adc_cali_handle_t cali = NULL;
    cali_scheme_t scheme = CALI_SCHEME_NONE;
    bool completed = false;
    esp_err_t err;

    err = adc_oneshot_io_to_channel(BATTERY_GPIO, &unit, &chan);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "GPIO%d is not an ADC pin: %s", BATTERY_GPIO, esp_err_to_name(err));
        return;
    }

    adc_oneshot_unit_init_cfg_t unit_cfg = {
        .unit_id = unit,
        .ulp_mode = ADC_ULP_MODE_DISABLE,
    };
    err = adc_oneshot_new_unit(&unit_cfg, &adc);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "adc_oneshot_new_unit failed: %s", esp_err_to_name(err));
        return;
    }

    adc_oneshot_chan_cfg_t chan_cfg = {
        .atten = BATTERY_ATTEN,
        .bitwidth = BATTERY_BITWIDTH,
    };
    err = adc_oneshot_config_channel(adc, chan, &chan_cfg);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "adc_oneshot_config_channel failed: %s", esp_err_to_name(err));
        goto release_unit;
    }

    err = battery_cali_create(unit, chan, BATTERY_ATTEN, &cali, &scheme);
    if (err == ESP_ERR_NOT_SUPPORTED) {
        ESP_LOGW(TAG, "no ADC calibration available on this chip, reporting raw readings");
    } else if (err != ESP_OK) {
        ESP_LOGE(TAG, "ADC calibration setup failed: %s", esp_err_to_name(err));
        goto release_unit;
    }

    TickType_t last_wake = xTaskGetTickCount();
    for (int report = 0; report < REPORT_COUNT; report++) {
        int avg_raw = 0;

        err = battery_read_average(adc, chan, &avg_raw);
        if (err != ESP_OK) {
            ESP_LOGE(TAG, "adc_oneshot_read failed: %s", esp_err_to_name(err));
            goto release_unit;
        }

        if (scheme != CALI_SCHEME_NONE) {
            int pin_mv = 0;
            err = adc_cali_raw_to_voltage(cali, avg_raw, &pin_mv);
            if (err != ESP_OK) {
                ESP_LOGE(TAG, "adc_cali_raw_to_voltage failed: %s", esp_err_to_name(err));
                goto release_cali;
            }
            ESP_LOGI(TAG, "battery: %d mV", pin_mv * DIVIDER_NUM / DIVIDER_DEN);
        } else {
            ESP_LOGI(TAG, "battery: raw %d (uncalibrated)", avg_raw);
        }

        if (report + 1 < REPORT_COUNT) {
            xTaskDelayUntil(&last_wake, pdMS_TO_TICKS(REPORT_PERIOD_MS));
        }
    }
    completed = true;

release_cali:
    if (scheme != CALI_SCHEME_NONE) {
        esp_err_t del_err = battery_cali_delete(cali, scheme);
        if (del_err != ESP_OK) {
            ESP_LOGE(TAG, "deleting calibration scheme failed: %s", esp_err_to_name(del_err));
            completed = false;
        }
        cali = NULL;
    }
release_unit:
    {
        esp_err_t del_err = adc_oneshot_del_unit(adc);
        if (del_err != ESP_OK) {
            ESP_LOGE(TAG, "adc_oneshot_del_unit failed: %s", esp_err_to_name(del_err));
            completed = false;
        }
        adc = NULL;
    }

    if (completed) {
        ESP_LOGI(TAG, "monitor stopped");
    }
}
