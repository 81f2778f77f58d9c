#include <inttypes.h>
#include <stdint.h>

#include "esp_attr.h"
#include "esp_err.h"
#include "esp_log.h"
#include "esp_sleep.h"

#define SLEEP_SECONDS 20ULL
#define US_PER_SECOND 1000000ULL

static const char *TAG = "sleeper";

static RTC_DATA_ATTR uint32_t boot_count;

void app_main(void)
{
	boot_count++;

	esp_sleep_wakeup_cause_t cause = esp_sleep_get_wakeup_cause();
	if (cause == ESP_SLEEP_WAKEUP_TIMER) {
		ESP_LOGI(TAG, "wakeup: timer");
	} else {
		ESP_LOGI(TAG, "wakeup: power-on or reset (cause %d)", (int)cause);
	}
	ESP_LOGI(TAG, "boot count: %" PRIu32, boot_count);

	esp_err_t err = esp_sleep_enable_timer_wakeup(SLEEP_SECONDS * US_PER_SECOND);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "cannot arm the wakeup timer: %s", esp_err_to_name(err));
		return;
	}

	ESP_LOGI(TAG, "entering deep sleep for %llu s", SLEEP_SECONDS);
	esp_deep_sleep_start();
}
