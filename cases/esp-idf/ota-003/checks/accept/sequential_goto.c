#include "esp_log.h"
#include "esp_ota_ops.h"
#include "esp_system.h"
#include "image_source.h"

static const char *TAG = "ota";

void app_main(void)
{
	static uint8_t buf[1024];
	esp_ota_handle_t h = 0;
	esp_err_t err;

	const esp_partition_t *slot = esp_ota_get_next_update_partition(NULL);
	if (!slot) {
		ESP_LOGE(TAG, "no update slot");
		return;
	}

	err = esp_ota_begin(slot, OTA_WITH_SEQUENTIAL_WRITES, &h);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "begin: %s", esp_err_to_name(err));
		return;
	}

	int n;
	while ((n = image_source_read(buf, sizeof buf)) > 0) {
		err = esp_ota_write(h, buf, n);
		if (err != ESP_OK) {
			ESP_LOGE(TAG, "write: %s", esp_err_to_name(err));
			goto fail;
		}
	}
	if (n < 0) {
		ESP_LOGE(TAG, "source read error");
		goto fail;
	}

	err = esp_ota_end(h);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "validation: %s", esp_err_to_name(err));
		return;
	}
	err = esp_ota_set_boot_partition(slot);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "set boot: %s", esp_err_to_name(err));
		return;
	}
	ESP_LOGI(TAG, "rebooting into %s", slot->label);
	esp_restart();

fail:
	esp_ota_abort(h);
}
