#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/logging/log.h>

LOG_MODULE_REGISTER(probe, LOG_LEVEL_INF);

static const struct device *const bme = DEVICE_DT_GET_ONE(bosch_bme280);

int main(void)
{
	if (!device_is_ready(bme)) {
		LOG_WRN("BME280 not ready");
	}
	LOG_INF("bench probe ready");
	return 0;
}
