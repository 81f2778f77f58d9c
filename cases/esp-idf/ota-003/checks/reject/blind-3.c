/* defect: The transfer buffer and read requests are 4096 bytes, so the image is pulled from the source in chunks four times larger than allowed.
 * breaks: "Read the image in chunks of at most 1024 bytes (do not hold the whole image in RAM) and write it to the OTA slot that is not currently running, using the ESP-IDF OTA API."
 * must_fail: image_read_in_chunks_of_1024
 */
/*
 * Install the image delivered by image_source into the inactive OTA slot,
 * switch the boot partition and restart. Any failure leaves the running
 * firmware as the boot image.
 */
#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>
#include "esp_err.h"
#include "esp_log.h"
#include "esp_system.h"
#include "esp_partition.h"
#include "esp_ota_ops.h"
#include "image_source.h"

static const char *TAG = "ota";

#define OTA_CHUNK_SIZE 4096   /* one flash sector per write */

static uint8_t s_chunk[OTA_CHUNK_SIZE];

/* Copy exactly image_size bytes from the source into the open OTA handle. */
static esp_err_t copy_image(esp_ota_handle_t handle, size_t image_size)
{
    size_t written = 0;

    while (written < image_size) {
        size_t want = image_size - written;
        if (want > sizeof(s_chunk)) {
            want = sizeof(s_chunk);
        }

        int got = image_source_read(s_chunk, want);
        if (got < 0) {
            ESP_LOGE(TAG, "image source read error (%d) at offset %u", got, (unsigned)written);
            return ESP_FAIL;
        }
        if (got == 0) {
            ESP_LOGE(TAG, "image source ended early: %u of %u bytes", (unsigned)written, (unsigned)image_size);
            return ESP_ERR_INVALID_SIZE;
        }
        if ((size_t)got > want) {
            ESP_LOGE(TAG, "image source returned more bytes than requested");
            return ESP_ERR_INVALID_SIZE;
        }

        esp_err_t err = esp_ota_write(handle, s_chunk, (size_t)got);
        if (err != ESP_OK) {
            ESP_LOGE(TAG, "esp_ota_write failed at offset %u: %s", (unsigned)written, esp_err_to_name(err));
            return err;
        }
        written += (size_t)got;
    }
    return ESP_OK;
}

void app_main(void)
{
    const esp_partition_t *running = esp_ota_get_running_partition();
    const esp_partition_t *update = esp_ota_get_next_update_partition(NULL);

    if (update == NULL) {
        ESP_LOGE(TAG, "no OTA update partition available");
        return;
    }
    ESP_LOGI(TAG, "running from '%s', writing to '%s' at 0x%" PRIx32,
             running ? running->label : "?", update->label, update->address);

    size_t image_size = image_source_size();
    if (image_size == 0 || image_size > update->size) {
        ESP_LOGE(TAG, "invalid image size %u (slot size %" PRIu32 ")", (unsigned)image_size, update->size);
        return;
    }

    esp_ota_handle_t handle = 0;
    /* Passing the real size makes esp_ota_begin erase only the sectors the image occupies. */
    esp_err_t err = esp_ota_begin(update, image_size, &handle);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "esp_ota_begin failed: %s", esp_err_to_name(err));
        return;
    }

    err = copy_image(handle, image_size);
    if (err != ESP_OK) {
        esp_ota_abort(handle);
        ESP_LOGE(TAG, "update aborted, keeping current firmware");
        return;
    }

    /* esp_ota_end releases the handle whatever the result. */
    err = esp_ota_end(handle);
    if (err != ESP_OK) {
        if (err == ESP_ERR_OTA_VALIDATE_FAILED) {
            ESP_LOGE(TAG, "new image failed validation");
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

    ESP_LOGI(TAG, "update written (%u bytes), restarting into '%s'", (unsigned)image_size, update->label);
    esp_restart();
}
