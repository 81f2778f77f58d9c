/* defect: nvs_flash_init() failure of any kind triggers an erase and re-init, so unrelated storage errors silently wipe the counter instead of being logged as errors.
 * breaks: "Any other storage failure must be logged as an error, and the application must not report a count it did not manage to store."
 * must_fail: nvs_init_recovers_by_erase
 */
#include <stdint.h>
#include <inttypes.h>
#include "esp_err.h"
#include "esp_log.h"
#include "nvs_flash.h"
#include "nvs.h"

static const char *TAG = "boot_counter";

#define NVS_NAMESPACE   "storage"
#define NVS_KEY_COUNT   "boot_count"

void app_main(void)
{
    esp_err_t err = nvs_flash_init();
    if (err != ESP_OK) {
        ESP_LOGW(TAG, "NVS needs to be erased (%s), reinitialising", esp_err_to_name(err));
        err = nvs_flash_erase();
        if (err == ESP_OK) {
            err = nvs_flash_init();
        }
    }
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "NVS init failed: %s", esp_err_to_name(err));
        return;
    }

    nvs_handle_t handle;
    err = nvs_open(NVS_NAMESPACE, NVS_READWRITE, &handle);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "nvs_open(\"%s\") failed: %s", NVS_NAMESPACE, esp_err_to_name(err));
        return;
    }

    uint32_t count = 0;
    err = nvs_get_u32(handle, NVS_KEY_COUNT, &count);
    if (err == ESP_ERR_NVS_NOT_FOUND) {
        /* First boot after flashing: no counter stored yet. */
        count = 0;
        err = ESP_OK;
    }

    if (err == ESP_OK) {
        count++;
        err = nvs_set_u32(handle, NVS_KEY_COUNT, count);
        if (err != ESP_OK) {
            ESP_LOGE(TAG, "nvs_set_u32 failed: %s", esp_err_to_name(err));
        }
    } else {
        ESP_LOGE(TAG, "nvs_get_u32 failed: %s", esp_err_to_name(err));
    }

    if (err == ESP_OK) {
        err = nvs_commit(handle);
        if (err != ESP_OK) {
            ESP_LOGE(TAG, "nvs_commit failed: %s", esp_err_to_name(err));
        }
    }

    nvs_close(handle);

    if (err == ESP_OK) {
        ESP_LOGI(TAG, "boot count: %" PRIu32, count);
    }
}
