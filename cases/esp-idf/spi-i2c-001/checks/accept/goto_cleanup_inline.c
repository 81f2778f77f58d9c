#include "driver/i2c_master.h"
#include "esp_check.h"
#include "esp_log.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"

#define TAG "i2c_temp"

void app_main(void)
{
	i2c_master_bus_handle_t bus;
	i2c_master_dev_handle_t sensor;
	esp_err_t ret;

	i2c_master_bus_config_t bcfg = {
		.clk_source = I2C_CLK_SRC_DEFAULT,
		.i2c_port = 0,
		.scl_io_num = 22,
		.sda_io_num = 21,
		.glitch_ignore_cnt = 7,
		.flags = { .enable_internal_pullup = 1 },
	};
	ret = i2c_new_master_bus(&bcfg, &bus);
	if (ret != ESP_OK) {
		ESP_LOGE(TAG, "i2c_new_master_bus: %s", esp_err_to_name(ret));
		return;
	}

	i2c_device_config_t dcfg = {
		.dev_addr_length = I2C_ADDR_BIT_LEN_7,
		.device_address = 0x48,
		.scl_speed_hz = 100 * 1000,
	};
	ret = i2c_master_bus_add_device(bus, &dcfg, &sensor);
	if (ret != ESP_OK) {
		ESP_LOGE(TAG, "i2c_master_bus_add_device: %s", esp_err_to_name(ret));
		goto del_bus;
	}

	for (int n = 0; n < 10; n++) {
		uint8_t reg = 0x00, buf[2] = {0};
		ret = i2c_master_transmit_receive(sensor, &reg, 1, buf, 2, 100);
		if (ret != ESP_OK) {
			ESP_LOGE(TAG, "read: %s", esp_err_to_name(ret));
			goto rm_dev;
		}
		int16_t v = (int16_t)((buf[0] << 8) | buf[1]);
		int32_t mc = ((int32_t)(v / 16) * 625) / 10;
		ESP_LOGI(TAG, "temperature: %d mC", (int)mc);
		vTaskDelay(pdMS_TO_TICKS(1000));
	}

rm_dev:
	i2c_master_bus_rm_device(sensor);
del_bus:
	i2c_del_master_bus(bus);
}
