/*
 * main/main.c - periodic work paced by an esp_timer (ESP-IDF 5.3)
 *
 * The "sampler" timer fires every 100 ms and is dispatched from the esp_timer
 * service task. Its callback only notifies app_main's task; the tick counting
 * and logging happen in app_main so the esp_timer task is never held up.
 */
#include <stdint.h>
#include <inttypes.h>

#include "freertos/FreeRTOS.h"
#include "freertos/task.h"
#include "esp_err.h"
#include "esp_log.h"
#include "esp_timer.h"

#define SAMPLER_PERIOD_US    (100 * 1000)   /* 100 ms */
#define TICK_TIMEOUT_MS      1000
#define SAMPLER_MAX_TICKS    20

static const char *TAG = "sampler";

/* Runs in the esp_timer task: hand the tick over and return at once. */
static void sampler_timer_cb(void *arg)
{
    TaskHandle_t worker = (TaskHandle_t)arg;

    xTaskNotifyGive(worker);
}

void app_main(void)
{
    esp_timer_handle_t timer = NULL;
    uint32_t ticks = 0;
    esp_err_t err;

    const esp_timer_create_args_t timer_args = {
        .callback = sampler_timer_cb,
        .arg = (void *)xTaskGetCurrentTaskHandle(),
        .dispatch_method = ESP_TIMER_TASK,
        .name = "sampler",
        .skip_unhandled_events = false,
    };

    err = esp_timer_create(&timer_args, &timer);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "esp_timer_create failed: %s", esp_err_to_name(err));
        return;
    }

    err = esp_timer_start_periodic(timer, SAMPLER_PERIOD_US);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "esp_timer_start_periodic failed: %s", esp_err_to_name(err));
        err = esp_timer_delete(timer);
        if (err != ESP_OK) {
            ESP_LOGE(TAG, "esp_timer_delete failed: %s", esp_err_to_name(err));
        }
        return;
    }

    while (ticks < SAMPLER_MAX_TICKS) {
        /* Take one pending tick at a time so none is lost if several queue up. */
        if (ulTaskNotifyTake(pdFALSE, pdMS_TO_TICKS(TICK_TIMEOUT_MS)) == 0) {
            ESP_LOGE(TAG, "no tick within %d ms, shutting down", TICK_TIMEOUT_MS);
            break;
        }
        ticks++;
        ESP_LOGI(TAG, "tick %" PRIu32, ticks);
    }

    /* Shut down: stop first (a running timer cannot be deleted), then free it. */
    err = esp_timer_stop(timer);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "esp_timer_stop failed: %s", esp_err_to_name(err));
    }

    err = esp_timer_delete(timer);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "esp_timer_delete failed: %s", esp_err_to_name(err));
        return;
    }
    timer = NULL;

    ESP_LOGI(TAG, "sampler stopped");
}
