/*
 * main/main.c - main task supervised by the Task Watchdog Timer (ESP-IDF 5.3)
 *
 * The TWDT is (re)configured for a 3 s timeout with panic on expiry, the main
 * task subscribes itself, runs a 5-step job feeding the watchdog after every
 * step, then unsubscribes and returns.
 */
#include "sdkconfig.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"
#include "esp_err.h"
#include "esp_log.h"
#include "esp_task_wdt.h"

#define TWDT_TIMEOUT_MS   3000
#define JOB_STEPS         5
#define STEP_DURATION_MS  1000

static const char *TAG = "worker";

void app_main(void)
{
    const esp_task_wdt_config_t twdt_config = {
        .timeout_ms     = TWDT_TIMEOUT_MS,
        .idle_core_mask = (1U << portNUM_PROCESSORS) - 1U,   /* idle tasks of every core */
        .trigger_panic  = true,
    };

#if CONFIG_ESP_TASK_WDT_INIT
    /* The TWDT was already started at boot with the project settings
     * (5 s, no panic by default): apply our timeout and panic mode. */
    ESP_ERROR_CHECK(esp_task_wdt_reconfigure(&twdt_config));
#else
    /* Not started at boot: start it ourselves. */
    ESP_ERROR_CHECK(esp_task_wdt_init(&twdt_config));
#endif

    /* NULL = the calling task, i.e. the main task running app_main. */
    ESP_ERROR_CHECK(esp_task_wdt_add(NULL));
    ESP_LOGI(TAG, "watchdog armed");

    for (int step = 1; step <= JOB_STEPS; step++) {
        /* One second of simulated work; blocking lets the idle tasks run. */
        vTaskDelay(pdMS_TO_TICKS(STEP_DURATION_MS));

        /* Progress made: feed the watchdog well inside the 3 s window. */
        ESP_ERROR_CHECK(esp_task_wdt_reset());
        ESP_LOGI(TAG, "step %d done", step);
    }

    ESP_ERROR_CHECK(esp_task_wdt_delete(NULL));
    ESP_LOGI(TAG, "watchdog released");
}
