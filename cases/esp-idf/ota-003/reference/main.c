#include <stdint.h>

#include "esp_err.h"
#include "esp_log.h"
#include "esp_ota_ops.h"
#include "esp_partition.h"
#include "esp_system.h"
#include "image_source.h"

#define CHUNK_SIZE 1024

static const char *TAG = "ota";

static uint8_t chunk[CHUNK_SIZE];

static esp_err_t ota_install_from_source(void)
{
	const esp_partition_t *target = esp_ota_get_next_update_partition(NULL);
	if (target == NULL) {
		ESP_LOGE(TAG, "no OTA update partition");
		return ESP_ERR_NOT_FOUND;
	}
	ESP_LOGI(TAG, "writing to partition %s at 0x%08lx", target->label, (unsigned long)target->address);

	esp_ota_handle_t handle;
	esp_err_t err = esp_ota_begin(target, image_source_size(), &handle);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "esp_ota_begin failed: %s", esp_err_to_name(err));
		return err;
	}

	for (;;) {
		int n = image_source_read(chunk, sizeof(chunk));
		if (n < 0) {
			ESP_LOGE(TAG, "image source read failed");
			esp_ota_abort(handle);
			return ESP_FAIL;
		}
		if (n == 0) {
			break;
		}
		err = esp_ota_write(handle, chunk, (size_t)n);
		if (err != ESP_OK) {
			ESP_LOGE(TAG, "esp_ota_write failed: %s", esp_err_to_name(err));
			esp_ota_abort(handle);
			return err;
		}
	}

	err = esp_ota_end(handle);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "image rejected: %s", esp_err_to_name(err));
		return err;
	}

	err = esp_ota_set_boot_partition(target);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "esp_ota_set_boot_partition failed: %s", esp_err_to_name(err));
		return err;
	}
	return ESP_OK;
}

void app_main(void)
{
	esp_err_t err = ota_install_from_source();
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "update failed, staying on the running image");
		return;
	}
	ESP_LOGI(TAG, "update installed, restarting");
	esp_restart();
}
