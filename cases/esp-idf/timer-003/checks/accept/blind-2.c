#include <stdbool.h>
#include <stdint.h>
#include <inttypes.h>

#include "freertos/FreeRTOS.h"
#include "freertos/task.h"
#include "freertos/queue.h"
#include "esp_err.h"
#include "esp_log.h"
#include "esp_timer.h"

static const char *TAG = "sampler";

#define SAMPLER_PERIOD_US   (100ULL * 1000ULL)   /* 100 ms, esp_timer counts in microseconds */
#define TICK_WAIT           pdMS_TO_TICKS(1000)
#define TICKS_TO_RUN        20U

static esp_timer_handle_t s_timer;
static QueueHandle_t s_tick_queue;

/*
 * esp_timer task context. Only forwards the event: never blocks (timeout 0),
 * so the esp_timer service task is free to run the other timers.
 */
static void on_sampler_timer(void *arg)
{
    (void)arg;
    int64_t now_us = esp_timer_get_time();

    (void)xQueueSend(s_tick_queue, &now_us, 0);
}

/* Disarm and free the timer; returns true when nothing is left behind. */
static bool sampler_timer_release(void)
{
    bool ok = true;
    esp_err_t err;

    if (s_timer == NULL) {
        return true;
    }

    err = esp_timer_stop(s_timer);
    if (err != ESP_OK && err != ESP_ERR_INVALID_STATE) {
        /* ESP_ERR_INVALID_STATE only means "was not running". */
        ESP_LOGE(TAG, "stopping timer failed: %s", esp_err_to_name(err));
        ok = false;
    }

    err = esp_timer_delete(s_timer);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "deleting timer failed: %s", esp_err_to_name(err));
        return false;
    }
    s_timer = NULL;

    return ok;
}

static esp_err_t sampler_timer_start(void)
{
    const esp_timer_create_args_t args = {
        .callback = &on_sampler_timer,
        .arg = NULL,
        .dispatch_method = ESP_TIMER_TASK,
        .name = "sampler",
    };
    esp_err_t err;

    err = esp_timer_create(&args, &s_timer);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "creating timer failed: %s", esp_err_to_name(err));
        s_timer = NULL;
        return err;
    }

    err = esp_timer_start_periodic(s_timer, SAMPLER_PERIOD_US);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "starting timer failed: %s", esp_err_to_name(err));
        (void)sampler_timer_release();
        return err;
    }

    return ESP_OK;
}

void app_main(void)
{
    unsigned tick_count = 0;
    int64_t fired_at_us;

    s_tick_queue = xQueueCreate(8, sizeof(int64_t));
    if (s_tick_queue == NULL) {
        ESP_LOGE(TAG, "cannot allocate tick queue");
        return;
    }

    if (sampler_timer_start() != ESP_OK) {
        vQueueDelete(s_tick_queue);
        s_tick_queue = NULL;
        return;
    }

    for (;;) {
        if (xQueueReceive(s_tick_queue, &fired_at_us, TICK_WAIT) != pdTRUE) {
            ESP_LOGE(TAG, "no tick for 1 s, giving up");
            break;
        }

        tick_count++;
        ESP_LOGI(TAG, "tick %u", tick_count);

        if (tick_count >= TICKS_TO_RUN) {
            break;
        }
    }

    if (!sampler_timer_release()) {
        /* The timer may still be armed and posting: keep the queue alive. */
        return;
    }

    vQueueDelete(s_tick_queue);
    s_tick_queue = NULL;

    ESP_LOGI(TAG, "sampler stopped");
}
