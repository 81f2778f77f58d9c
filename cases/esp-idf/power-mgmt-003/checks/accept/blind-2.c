#include <stdbool.h>
#include <stdint.h>
#include "esp_attr.h"
#include "esp_err.h"
#include "esp_log.h"
#include "esp_sleep.h"
#include "esp_system.h"

#define TAG "sleeper"

/* Wakeup period in microseconds (the unit esp_sleep_enable_timer_wakeup expects). */
static const uint64_t WAKEUP_PERIOD_US = 20ULL * 1000ULL * 1000ULL;

/*
 * Boot counter in RTC memory (.rtc.data): its initial value is loaded on
 * power-on / reset and it is preserved while the chip is in deep sleep.
 * No flash is written.
 */
RTC_DATA_ATTR static int boot_count;

static void report_wakeup_cause(void)
{
    switch (esp_sleep_get_wakeup_cause()) {
    case ESP_SLEEP_WAKEUP_TIMER:
        ESP_LOGI(TAG, "wakeup: timer");
        break;
    case ESP_SLEEP_WAKEUP_UNDEFINED:
        ESP_LOGI(TAG, "start: not a deep-sleep wakeup (reset reason %d)", (int)esp_reset_reason());
        break;
    default:
        ESP_LOGI(TAG, "start: unexpected wakeup source %d", (int)esp_sleep_get_wakeup_cause());
        break;
    }
}

static bool schedule_timer_wakeup(void)
{
    esp_err_t err = esp_sleep_enable_timer_wakeup(WAKEUP_PERIOD_US);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "esp_sleep_enable_timer_wakeup(%llu us) failed: %s",
                 (unsigned long long)WAKEUP_PERIOD_US, esp_err_to_name(err));
        return false;
    }
    return true;
}

void app_main(void)
{
    report_wakeup_cause();

    boot_count = boot_count + 1;
    ESP_LOGI(TAG, "boot count: %d", boot_count);

    if (!schedule_timer_wakeup()) {
        ESP_LOGE(TAG, "staying awake: wakeup could not be scheduled");
        return;
    }

    ESP_LOGI(TAG, "going to deep sleep");
    esp_deep_sleep_start();
}
