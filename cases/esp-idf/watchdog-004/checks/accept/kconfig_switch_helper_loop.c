#include <stdbool.h>
#include "sdkconfig.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"
#include "esp_err.h"
#include "esp_log.h"
#include "esp_task_wdt.h"

#define STEP_COUNT  5
#define STEP_PERIOD pdMS_TO_TICKS(1000)

static const char *TAG = "worker";

static void run_steps(void)
{
	TickType_t last_wake = xTaskGetTickCount();

	for (unsigned i = 0; i < STEP_COUNT; ++i) {
		vTaskDelayUntil(&last_wake, STEP_PERIOD);
		ESP_ERROR_CHECK(esp_task_wdt_reset());
		ESP_LOGI(TAG, "step %u done", i + 1);
	}
}

void app_main(void)
{
	esp_task_wdt_config_t twdt = {0};
	twdt.timeout_ms = 3000;
	twdt.idle_core_mask = (1 << portNUM_PROCESSORS) - 1;
	twdt.trigger_panic = true;

#if CONFIG_ESP_TASK_WDT_INIT
	/* Started by the startup code: only change its settings. */
	ESP_ERROR_CHECK(esp_task_wdt_reconfigure(&twdt));
#else
	ESP_ERROR_CHECK(esp_task_wdt_init(&twdt));
#endif
	ESP_ERROR_CHECK(esp_task_wdt_add(NULL));
	ESP_LOGI(TAG, "watchdog armed");

	run_steps();

	ESP_ERROR_CHECK(esp_task_wdt_delete(NULL));
	ESP_LOGI(TAG, "watchdog released");
}
