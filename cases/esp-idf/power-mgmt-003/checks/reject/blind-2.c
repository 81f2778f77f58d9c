/* defect: The wakeup period is computed with a factor of 1000 instead of 1000000, so the timer is armed for 20 ms rather than 20 s.
 * breaks: "The device wakes up by itself every 20 seconds, logs a few lines and goes straight back to deep sleep."
 * must_fail: timer_period_in_microseconds
 */
/*
 * Deep-sleep sensor node: wakes every 20 s on the RTC timer, logs the wakeup
 * cause and a boot counter kept in RTC slow memory, then sleeps again.
 */
#include <stdint.h>
#include <inttypes.h>
#include "esp_attr.h"
#include "esp_err.h"
#include "esp_log.h"
#include "esp_sleep.h"

static const char *TAG = "sleeper";

#define SLEEP_PERIOD_S   20ULL
#define SLEEP_PERIOD_US  (SLEEP_PERIOD_S * 1000ULL)

/* Lives in RTC slow memory: kept across deep sleep, re-initialised to 0 on power-on. */
static RTC_DATA_ATTR uint32_t s_boot_count = 0;

void app_main(void)
{
    s_boot_count++;

    esp_sleep_wakeup_cause_t cause = esp_sleep_get_wakeup_cause();
    if (cause == ESP_SLEEP_WAKEUP_TIMER) {
        ESP_LOGI(TAG, "wakeup: timer");
    } else if (cause == ESP_SLEEP_WAKEUP_UNDEFINED) {
        ESP_LOGI(TAG, "wakeup: none (power-on or reset)");
    } else {
        ESP_LOGI(TAG, "wakeup: other (cause %d)", (int)cause);
    }
    ESP_LOGI(TAG, "boot count: %" PRIu32, s_boot_count);

    esp_err_t err = esp_sleep_enable_timer_wakeup(SLEEP_PERIOD_US);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "cannot arm timer wakeup: %s", esp_err_to_name(err));
        return;
    }

    ESP_LOGI(TAG, "entering deep sleep for %llu s", SLEEP_PERIOD_S);
    esp_deep_sleep_start();
}
