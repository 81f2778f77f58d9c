#include <stdint.h>
#include <inttypes.h>
#include "esp_err.h"
#include "esp_log.h"
#include "esp_timer.h"
#include "freertos/FreeRTOS.h"
#include "freertos/semphr.h"

static const char *TAG = "sampler";
static SemaphoreHandle_t tick_sem;

static void timer_callback(void *arg)
{
    (void)arg;
    xSemaphoreGive(tick_sem);
}

void app_main(void)
{
    esp_timer_handle_t periodic_timer;
    const esp_timer_create_args_t periodic_timer_args = {
        .callback = &timer_callback,
        .name = "sampler"
    };

    tick_sem = xSemaphoreCreateBinary();
    if (tick_sem == NULL) {
        ESP_LOGE(TAG, "semaphore");
        return;
    }
    ESP_ERROR_CHECK(esp_timer_create(&periodic_timer_args, &periodic_timer));
    ESP_ERROR_CHECK(esp_timer_start_periodic(periodic_timer, 100 * 1000));

    for (uint32_t tick = 1; tick <= 20; tick++) {
        if (xSemaphoreTake(tick_sem, pdMS_TO_TICKS(1000)) != pdTRUE) {
            ESP_LOGE(TAG, "no tick for 1 s");
            break;
        }
        ESP_LOGI(TAG, "tick %" PRIu32, tick);
    }

    ESP_ERROR_CHECK(esp_timer_stop(periodic_timer));
    ESP_ERROR_CHECK(esp_timer_delete(periodic_timer));
    vSemaphoreDelete(tick_sem);
    ESP_LOGI(TAG, "sampler stopped");
}
