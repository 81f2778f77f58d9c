#include "freertos/FreeRTOS.h"
#include "freertos/task.h"
#include "esp_log.h"
#include "esp_task_wdt.h"

static const char *TAG = "worker";

static const esp_task_wdt_config_t wdt_cfg = {
	.timeout_ms = 3 * 1000,
	.idle_core_mask = (1U << portNUM_PROCESSORS) - 1U,
	.trigger_panic = true,
};

static void do_step(void)
{
	vTaskDelay(1000 / portTICK_PERIOD_MS);
}

void app_main(void)
{
	esp_err_t err;
	TaskHandle_t self = xTaskGetCurrentTaskHandle();

	/* ESP_ERR_INVALID_STATE: nobody has started the TWDT yet. */
	if (esp_task_wdt_status(self) == ESP_ERR_INVALID_STATE) {
		err = esp_task_wdt_init(&wdt_cfg);
	} else {
		err = esp_task_wdt_reconfigure(&wdt_cfg);
	}
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "TWDT setup failed: %s", esp_err_to_name(err));
		return;
	}

	err = esp_task_wdt_add(self);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "cannot subscribe: %s", esp_err_to_name(err));
		return;
	}
	ESP_LOGI(TAG, "watchdog armed");

	int done = 0;
	while (done < 5) {
		do_step();
		err = esp_task_wdt_reset();
		if (err != ESP_OK) {
			ESP_LOGE(TAG, "feed failed: %s", esp_err_to_name(err));
			break;
		}
		done++;
		ESP_LOGI(TAG, "step %d done", done);
	}

	err = esp_task_wdt_delete(self);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "unsubscribe failed: %s", esp_err_to_name(err));
		return;
	}
	ESP_LOGI(TAG, "watchdog released");
}
