/* defect: When image_source_read reports an error the function returns without calling esp_ota_abort, leaking the open OTA handle and its buffers.
 * breaks: "In those cases log an error with the tag `"ota"`, release everything the update acquired, and return from `app_main` without restarting."
 * must_fail: failed_write_aborts_update
 */
#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>
#include "esp_err.h"
#include "esp_log.h"
#include "esp_system.h"
#include "esp_ota_ops.h"
#include "image_source.h"

static const char *TAG = "ota";

#define CHUNK_SIZE 1024

void app_main(void)
{
    static uint8_t buf[CHUNK_SIZE];

    const esp_partition_t *update = esp_ota_get_next_update_partition(NULL);
    if (update == NULL) {
        ESP_LOGE(TAG, "no OTA update partition found");
        return;
    }

    size_t image_size = image_source_size();
    if (image_size == 0 || image_size > update->size) {
        ESP_LOGE(TAG, "image size %u invalid for partition '%s' (%" PRIu32 " bytes)",
                 (unsigned)image_size, update->label, update->size);
        return;
    }

    esp_ota_handle_t handle;
    esp_err_t err = esp_ota_begin(update, image_size, &handle);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "esp_ota_begin failed: %s", esp_err_to_name(err));
        return;
    }

    size_t written = 0;
    while (written < image_size) {
        size_t len = image_size - written;
        if (len > CHUNK_SIZE) {
            len = CHUNK_SIZE;
        }

        int n = image_source_read(buf, len);
        if (n <= 0) {
            ESP_LOGE(TAG, "image source failed after %u bytes (%d)", (unsigned)written, n);
            return;
        }

        err = esp_ota_write(handle, buf, (size_t)n);
        if (err != ESP_OK) {
            ESP_LOGE(TAG, "esp_ota_write failed: %s", esp_err_to_name(err));
            esp_ota_abort(handle);
            return;
        }
        written += (size_t)n;
    }

    err = esp_ota_end(handle);
    if (err != ESP_OK) {
        if (err == ESP_ERR_OTA_VALIDATE_FAILED) {
            ESP_LOGE(TAG, "image validation failed");
        } else {
            ESP_LOGE(TAG, "esp_ota_end failed: %s", esp_err_to_name(err));
        }
        return;
    }

    err = esp_ota_set_boot_partition(update);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "esp_ota_set_boot_partition failed: %s", esp_err_to_name(err));
        return;
    }

    ESP_LOGI(TAG, "OTA update complete, restarting");
    esp_restart();
}
