#include <inttypes.h>
#include "esp_log.h"
#include "nvs_flash.h"

static const char *TAG = "boot_counter";

void app_main(void)
{
	esp_err_t err = nvs_flash_init();
	if (err == ESP_ERR_NVS_NO_FREE_PAGES || err == ESP_ERR_NVS_NEW_VERSION_FOUND) {
		ESP_ERROR_CHECK(nvs_flash_erase());
		err = nvs_flash_init();
	}
	ESP_ERROR_CHECK(err);

	nvs_handle_t handle;
	err = nvs_open("storage", NVS_READWRITE, &handle);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "nvs_open failed: %s", esp_err_to_name(err));
		return;
	}

	uint32_t count = 0;
	err = nvs_get_u32(handle, "boot_count", &count);
	if (err != ESP_OK && err != ESP_ERR_NVS_NOT_FOUND) {
		ESP_LOGE(TAG, "reading the counter failed: %s", esp_err_to_name(err));
		goto out;
	}

	count++;
	err = nvs_set_u32(handle, "boot_count", count);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "storing the counter failed: %s", esp_err_to_name(err));
		goto out;
	}

	err = nvs_commit(handle);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "commit failed: %s", esp_err_to_name(err));
		goto out;
	}

	ESP_LOGI(TAG, "boot count: %" PRIu32, count);

out:
	nvs_close(handle);
}
