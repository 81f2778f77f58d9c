#include <stdbool.h>

#include "freertos/FreeRTOS.h"
#include "freertos/task.h"
#include "esp_err.h"
#include "esp_log.h"
#include "esp_task_wdt.h"

#define TWDT_TIMEOUT_MS 3000
#define WORK_STEPS      5
#define STEP_MS         1000

static const char *TAG = "worker";

/* Apply our TWDT settings whether or not ESP-IDF started the TWDT at boot
 * (CONFIG_ESP_TASK_WDT_INIT). */
static esp_err_t twdt_configure(void)
{
	const esp_task_wdt_config_t cfg = {
		.timeout_ms = TWDT_TIMEOUT_MS,
		.idle_core_mask = (1U << portNUM_PROCESSORS) - 1U,
		.trigger_panic = true,
	};

	esp_err_t err = esp_task_wdt_init(&cfg);
	if (err == ESP_ERR_INVALID_STATE) {
		/* Already running: change its timeout and panic behaviour. */
		err = esp_task_wdt_reconfigure(&cfg);
	}
	return err;
}

void app_main(void)
{
	ESP_ERROR_CHECK(twdt_configure());
	ESP_ERROR_CHECK(esp_task_wdt_add(NULL));
	ESP_LOGI(TAG, "watchdog armed");

	for (int step = 1; step <= WORK_STEPS; step++) {
		/* One step of work: blocks, so the idle tasks keep running. */
		vTaskDelay(pdMS_TO_TICKS(STEP_MS));
		ESP_ERROR_CHECK(esp_task_wdt_reset());
		ESP_LOGI(TAG, "step %d done", step);
	}

	/* A deleted task that is still subscribed would trip the TWDT. */
	ESP_ERROR_CHECK(esp_task_wdt_delete(NULL));
	ESP_LOGI(TAG, "watchdog released");
}
