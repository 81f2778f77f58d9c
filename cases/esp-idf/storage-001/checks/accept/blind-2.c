/*
 * Boot counter kept in the default NVS partition.
 */
#include <stdint.h>
#include <inttypes.h>
#include "esp_err.h"
#include "esp_log.h"
#include "nvs.h"
#include "nvs_flash.h"

static const char *TAG = "boot_counter";

static esp_err_t storage_init(void)
{
    esp_err_t ret = nvs_flash_init();

    switch (ret) {
    case ESP_OK:
        return ESP_OK;

    case ESP_ERR_NVS_NO_FREE_PAGES:
    case ESP_ERR_NVS_NEW_VERSION_FOUND:
        ESP_LOGW(TAG, "erasing NVS partition (%s)", esp_err_to_name(ret));
        ret = nvs_flash_erase();
        if (ret != ESP_OK) {
            ESP_LOGE(TAG, "nvs_flash_erase: %s", esp_err_to_name(ret));
            return ret;
        }
        ret = nvs_flash_init();
        if (ret != ESP_OK) {
            ESP_LOGE(TAG, "nvs_flash_init after erase: %s", esp_err_to_name(ret));
        }
        return ret;

    default:
        ESP_LOGE(TAG, "nvs_flash_init: %s", esp_err_to_name(ret));
        return ret;
    }
}

/* Reads, increments and durably stores the counter. *out is only written on success. */
static esp_err_t boot_count_increment(uint32_t *out)
{
    nvs_handle_t h;
    uint32_t value = 0;
    esp_err_t ret;

    ret = nvs_open_from_partition(NVS_DEFAULT_PART_NAME, "storage", NVS_READWRITE, &h);
    if (ret != ESP_OK) {
        ESP_LOGE(TAG, "nvs_open: %s", esp_err_to_name(ret));
        return ret;
    }

    ret = nvs_get_u32(h, "boot_count", &value);
    if (ret == ESP_ERR_NVS_NOT_FOUND) {
        value = 0;
    } else if (ret != ESP_OK) {
        ESP_LOGE(TAG, "nvs_get_u32: %s", esp_err_to_name(ret));
        goto out_close;
    }

    value += 1;

    ret = nvs_set_u32(h, "boot_count", value);
    if (ret != ESP_OK) {
        ESP_LOGE(TAG, "nvs_set_u32: %s", esp_err_to_name(ret));
        goto out_close;
    }

    ret = nvs_commit(h);
    if (ret != ESP_OK) {
        ESP_LOGE(TAG, "nvs_commit: %s", esp_err_to_name(ret));
        goto out_close;
    }

    *out = value;

out_close:
    nvs_close(h);
    return ret;
}

void app_main(void)
{
    uint32_t boots;

    if (storage_init() != ESP_OK) {
        return;
    }

    if (boot_count_increment(&boots) != ESP_OK) {
        return;
    }

    ESP_LOGI(TAG, "boot count: %" PRIu32, boots);
}
