#include <inttypes.h>
#include <stdint.h>

#include "esp_check.h"
#include "esp_log.h"
#include "esp_timer.h"
#include "freertos/FreeRTOS.h"
#include "freertos/queue.h"
#include "freertos/task.h"

static const char *TAG = "sampler";
static QueueHandle_t tick_queue;

static void on_tick(void *arg)
{
	int64_t now = esp_timer_get_time();

	(void)arg;
	xQueueSend(tick_queue, &now, 0);
}

static esp_err_t run_sampler(esp_timer_handle_t *out)
{
	const esp_timer_create_args_t cfg = {
		.callback = &on_tick,
		.name = "sampler",
	};
	esp_timer_handle_t t;

	ESP_RETURN_ON_ERROR(esp_timer_create(&cfg, &t), TAG, "create");
	esp_err_t err = esp_timer_start_periodic(t, 100000ULL);
	if (err != ESP_OK) {
		ESP_ERROR_CHECK_WITHOUT_ABORT(esp_timer_delete(t));
		return err;
	}
	*out = t;
	return ESP_OK;
}

void app_main(void)
{
	esp_timer_handle_t timer;
	int64_t stamp;
	uint32_t n = 0;

	tick_queue = xQueueCreate(4, sizeof(int64_t));
	if (tick_queue == NULL) {
		ESP_LOGE(TAG, "no memory for queue");
		return;
	}
	if (run_sampler(&timer) != ESP_OK) {
		ESP_LOGE(TAG, "timer setup failed");
		vQueueDelete(tick_queue);
		return;
	}
	for (n = 1; n <= 20; n++) {
		if (xQueueReceive(tick_queue, &stamp, pdMS_TO_TICKS(1000)) != pdTRUE) {
			ESP_LOGE(TAG, "timer stalled");
			break;
		}
		ESP_LOGI(TAG, "tick %" PRIu32 " at %" PRId64 " us", n, stamp);
	}
	ESP_ERROR_CHECK(esp_timer_stop(timer));
	ESP_ERROR_CHECK(esp_timer_delete(timer));
	vQueueDelete(tick_queue);
	ESP_LOGI(TAG, "sampler stopped");
}
