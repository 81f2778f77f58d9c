#include <stdint.h>
#include "esp_attr.h"
#include "esp_log.h"
#include "esp_sleep.h"

static const char *TAG = "sleeper";
static const uint64_t wake_period_us = 20 * 1000 * 1000ULL;

RTC_DATA_ATTR static int boots = 0;

void app_main(void)
{
	++boots;
	switch (esp_sleep_get_wakeup_cause()) {
	case ESP_SLEEP_WAKEUP_TIMER:
		ESP_LOGI(TAG, "wakeup: timer");
		break;
	default:
		ESP_LOGI(TAG, "wakeup: not from deep sleep");
		break;
	}
	ESP_LOGI(TAG, "boot count: %d", boots);

	if (esp_sleep_enable_timer_wakeup(wake_period_us) != ESP_OK) {
		ESP_LOGE(TAG, "timer wakeup rejected");
		return;
	}
	esp_deep_sleep_start();
}
