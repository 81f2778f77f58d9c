#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "freertos/FreeRTOS.h"
#include "freertos/task.h"
#include "esp_err.h"
#include "esp_log.h"
#include "esp_task_wdt.h"

static const char *TAG = "worker";

static const uint32_t WDT_TIMEOUT_MS = 3000;
static const uint32_t WORK_STEP_MS   = 1000;
static const int      WORK_STEPS     = 5;

/*
 * Bring the TWDT to a 3 s / panic configuration whatever the project
 * configuration did at boot. esp_task_wdt_init() refuses with
 * ESP_ERR_INVALID_STATE when the TWDT is already running (the default,
 * CONFIG_ESP_TASK_WDT_INIT=y); in that case reconfigure the running one.
 */
static esp_err_t twdt_configure(void)
{
    esp_task_wdt_config_t cfg = {
        .timeout_ms     = WDT_TIMEOUT_MS,
        .idle_core_mask = 0,
        .trigger_panic  = true,
    };

    for (int core = 0; core < portNUM_PROCESSORS; core++) {
        cfg.idle_core_mask |= (1U << core);
    }

    esp_err_t err = esp_task_wdt_init(&cfg);
    if (err == ESP_ERR_INVALID_STATE) {
        err = esp_task_wdt_reconfigure(&cfg);
    }
    return err;
}

/* One unit of the job: stands for one second of work. */
static void do_work_step(void)
{
    vTaskDelay(pdMS_TO_TICKS(WORK_STEP_MS));
}

void app_main(void)
{
    esp_err_t err;

    err = twdt_configure();
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "TWDT configuration failed: %s", esp_err_to_name(err));
        abort();
    }

    err = esp_task_wdt_add(xTaskGetCurrentTaskHandle());
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "cannot subscribe main task: %s", esp_err_to_name(err));
        abort();
    }
    ESP_LOGI(TAG, "watchdog armed");

    int step = 0;
    while (step < WORK_STEPS) {
        do_work_step();
        step++;

        err = esp_task_wdt_reset();
        if (err != ESP_OK) {
            ESP_LOGE(TAG, "feeding TWDT failed: %s", esp_err_to_name(err));
            abort();
        }
        ESP_LOGI(TAG, "step %d done", step);
    }

    err = esp_task_wdt_delete(xTaskGetCurrentTaskHandle());
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "cannot unsubscribe main task: %s", esp_err_to_name(err));
        abort();
    }
    ESP_LOGI(TAG, "watchdog released");
}
