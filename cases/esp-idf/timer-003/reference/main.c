#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>

#include "esp_err.h"
#include "esp_log.h"
#include "esp_timer.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"

#define SAMPLE_PERIOD_US  (100 * 1000)
#define SAMPLE_TICKS      20U
#define TICK_WAIT         pdMS_TO_TICKS(1000)

static const char *TAG = "sampler";

static void sampler_timer_cb(void *arg)
{
	xTaskNotifyGive((TaskHandle_t)arg);
}

void app_main(void)
{
	esp_timer_handle_t timer = NULL;
	uint32_t ticks = 0;
	esp_err_t err;

	const esp_timer_create_args_t args = {
		.callback = sampler_timer_cb,
		.arg = xTaskGetCurrentTaskHandle(),
		.dispatch_method = ESP_TIMER_TASK,
		.name = "sampler",
		.skip_unhandled_events = true,
	};

	err = esp_timer_create(&args, &timer);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "esp_timer_create failed: %s", esp_err_to_name(err));
		return;
	}

	err = esp_timer_start_periodic(timer, SAMPLE_PERIOD_US);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "esp_timer_start_periodic failed: %s", esp_err_to_name(err));
		ESP_ERROR_CHECK_WITHOUT_ABORT(esp_timer_delete(timer));
		return;
	}

	while (ticks < SAMPLE_TICKS) {
		uint32_t pending = ulTaskNotifyTake(pdTRUE, TICK_WAIT);

		if (pending == 0) {
			ESP_LOGE(TAG, "no tick within %d ms", 1000);
			break;
		}
		while (pending-- > 0 && ticks < SAMPLE_TICKS) {
			ticks++;
			ESP_LOGI(TAG, "tick %" PRIu32, ticks);
		}
	}

	err = esp_timer_stop(timer);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "esp_timer_stop failed: %s", esp_err_to_name(err));
	}
	err = esp_timer_delete(timer);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "esp_timer_delete failed: %s", esp_err_to_name(err));
		return;
	}
	ESP_LOGI(TAG, "sampler stopped");
}
