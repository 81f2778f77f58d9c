/* defect: The counter is placed with RTC_NOINIT_ATTR, so it is never initialised and starts from whatever garbage RTC memory holds after power-on instead of zero.
 * breaks: "Keep a boot counter that counts starts across deep-sleep cycles without writing to flash (flash wear must be avoided); after power-on it starts again from zero."
 * must_fail: boot_counter_in_rtc_memory
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
#define SLEEP_PERIOD_US  (SLEEP_PERIOD_S * 1000000ULL)

/* Lives in RTC slow memory: kept across deep sleep, no flash writes. */
static RTC_NOINIT_ATTR uint32_t s_boot_count;

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
