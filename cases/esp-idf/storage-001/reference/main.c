#include <inttypes.h>
#include <stdint.h>

#include "esp_err.h"
#include "esp_log.h"
#include "nvs.h"
#include "nvs_flash.h"

static const char *TAG = "boot_counter";

#define COUNTER_NAMESPACE "storage"
#define COUNTER_KEY "boot_count"

static esp_err_t storage_init(void)
{
	esp_err_t err = nvs_flash_init();

	if (err == ESP_ERR_NVS_NO_FREE_PAGES || err == ESP_ERR_NVS_NEW_VERSION_FOUND) {
		ESP_LOGW(TAG, "erasing NVS partition (%s)", esp_err_to_name(err));
		err = nvs_flash_erase();
		if (err != ESP_OK) {
			return err;
		}
		err = nvs_flash_init();
	}
	return err;
}

static esp_err_t increment_boot_count(uint32_t *out_count)
{
	nvs_handle_t handle;
	uint32_t count = 0;

	esp_err_t err = nvs_open(COUNTER_NAMESPACE, NVS_READWRITE, &handle);
	if (err != ESP_OK) {
		return err;
	}

	err = nvs_get_u32(handle, COUNTER_KEY, &count);
	if (err == ESP_ERR_NVS_NOT_FOUND) {
		ESP_LOGI(TAG, "no stored counter, first boot");
		count = 0;
	} else if (err != ESP_OK) {
		nvs_close(handle);
		return err;
	}

	count++;
	err = nvs_set_u32(handle, COUNTER_KEY, count);
	if (err != ESP_OK) {
		nvs_close(handle);
		return err;
	}

	err = nvs_commit(handle);
	nvs_close(handle);
	if (err != ESP_OK) {
		return err;
	}

	*out_count = count;
	return ESP_OK;
}

void app_main(void)
{
	uint32_t count = 0;

	esp_err_t err = storage_init();
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "NVS init failed: %s", esp_err_to_name(err));
		return;
	}

	err = increment_boot_count(&count);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "boot counter not updated: %s", esp_err_to_name(err));
		return;
	}

	ESP_LOGI(TAG, "boot count: %" PRIu32, count);
}
