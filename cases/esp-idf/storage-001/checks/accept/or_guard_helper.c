#include <inttypes.h>
#include "esp_log.h"
#include "nvs_flash.h"

static const char *TAG = "boot_counter";

static esp_err_t init_nvs(void)
{
	esp_err_t err = nvs_flash_init();
	if (err == ESP_ERR_NVS_NO_FREE_PAGES || err == ESP_ERR_NVS_NEW_VERSION_FOUND) {
		err = nvs_flash_erase();
		if (err == ESP_OK) {
			err = nvs_flash_init();
		}
	}
	return err;
}

void app_main(void)
{
	nvs_handle_t nvs;
	uint32_t boots = 0;
	esp_err_t err;

	if (init_nvs() != ESP_OK) {
		ESP_LOGE(TAG, "NVS unavailable");
		return;
	}
	err = nvs_open("storage", NVS_READWRITE, &nvs);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "open failed: %s", esp_err_to_name(err));
		return;
	}
	err = nvs_get_u32(nvs, "boot_count", &boots);
	if (err == ESP_OK || err == ESP_ERR_NVS_NOT_FOUND) {
		boots++;
		err = nvs_set_u32(nvs, "boot_count", boots);
	}
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "counter not stored: %s", esp_err_to_name(err));
		nvs_close(nvs);
		return;
	}

	err = nvs_commit(nvs);
	nvs_close(nvs);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "counter not stored: %s", esp_err_to_name(err));
		return;
	}
	ESP_LOGI(TAG, "boot count: %" PRIu32, boots);
}
