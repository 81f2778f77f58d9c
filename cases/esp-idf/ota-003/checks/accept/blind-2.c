#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include "esp_err.h"
#include "esp_log.h"
#include "esp_system.h"
#include "esp_ota_ops.h"
#include "image_source.h"

#define TAG        "ota"
#define CHUNK_LEN  1024u

void app_main(void)
{
    esp_err_t err;
    uint8_t *chunk = NULL;
    esp_ota_handle_t ota = 0;
    bool ota_open = false;
    bool ready_to_boot = false;

    const esp_partition_t *target = esp_ota_get_next_update_partition(NULL);
    if (target == NULL) {
        ESP_LOGE(TAG, "no inactive OTA slot found");
        goto out;
    }

    const size_t total = image_source_size();
    if (total == 0 || total > target->size) {
        ESP_LOGE(TAG, "image size %u does not fit slot '%s'", (unsigned)total, target->label);
        goto out;
    }

    chunk = malloc(CHUNK_LEN);
    if (chunk == NULL) {
        ESP_LOGE(TAG, "no memory for the transfer buffer");
        goto out;
    }

    /* Erase only what the image needs (rounded up to whole sectors). */
    err = esp_ota_begin(target, total, &ota);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "esp_ota_begin: %s", esp_err_to_name(err));
        goto out;
    }
    ota_open = true;

    size_t done = 0;
    for (;;) {
        int n = image_source_read(chunk, CHUNK_LEN);
        if (n == 0) {
            break;
        }
        if (n < 0) {
            ESP_LOGE(TAG, "reading the image failed (%d) after %u bytes", n, (unsigned)done);
            goto out;
        }
        if ((size_t)n > CHUNK_LEN || done + (size_t)n > total) {
            ESP_LOGE(TAG, "image source delivered more than the announced %u bytes", (unsigned)total);
            goto out;
        }
        err = esp_ota_write(ota, chunk, (size_t)n);
        if (err != ESP_OK) {
            ESP_LOGE(TAG, "esp_ota_write: %s", esp_err_to_name(err));
            goto out;
        }
        done += (size_t)n;
    }

    if (done != total) {
        ESP_LOGE(TAG, "image truncated: %u of %u bytes", (unsigned)done, (unsigned)total);
        goto out;
    }

    /* The handle is gone after esp_ota_end, successful or not. */
    ota_open = false;
    err = esp_ota_end(ota);
    if (err == ESP_ERR_OTA_VALIDATE_FAILED) {
        ESP_LOGE(TAG, "image validation failed, keeping the current firmware");
        goto out;
    } else if (err != ESP_OK) {
        ESP_LOGE(TAG, "esp_ota_end: %s", esp_err_to_name(err));
        goto out;
    }

    err = esp_ota_set_boot_partition(target);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "esp_ota_set_boot_partition: %s", esp_err_to_name(err));
        goto out;
    }
    ready_to_boot = true;

out:
    if (ota_open) {
        esp_ota_abort(ota);
    }
    free(chunk);

    if (ready_to_boot) {
        ESP_LOGI(TAG, "boot partition set to '%s', restarting", target->label);
        esp_restart();
    }
}
