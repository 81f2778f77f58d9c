#include <inttypes.h>
#include <stdbool.h>
#include "esp_log.h"
#include "nvs.h"
#include "nvs_flash.h"

static const char *TAG = "boot_counter";

static bool bump_counter(uint32_t *value)
{
	nvs_handle_t h;

	if (nvs_open("storage", NVS_READWRITE, &h) != ESP_OK) {
		return false;
	}

	esp_err_t err = nvs_get_u32(h, "boot_count", value);
	switch (err) {
	case ESP_OK:
		break;
	case ESP_ERR_NVS_NOT_FOUND:
		*value = 0;
		break;
	default:
		ESP_LOGE(TAG, "read failed: %s", esp_err_to_name(err));
		nvs_close(h);
		return false;
	}

	*value += 1;
	if (nvs_set_u32(h, "boot_count", *value) != ESP_OK || nvs_commit(h) != ESP_OK) {
		ESP_LOGE(TAG, "could not store the counter");
		nvs_close(h);
		return false;
	}
	nvs_close(h);
	return true;
}

void app_main(void)
{
	esp_err_t ret = nvs_flash_init();
	if (ret == ESP_ERR_NVS_NO_FREE_PAGES || ret == ESP_ERR_NVS_NEW_VERSION_FOUND) {
		ESP_ERROR_CHECK(nvs_flash_erase());
		ret = nvs_flash_init();
	}
	ESP_ERROR_CHECK(ret);

	uint32_t boots;
	if (bump_counter(&boots)) {
		ESP_LOGI(TAG, "boot count: %" PRIu32, boots);
	}
}
