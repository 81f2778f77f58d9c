#include <stdint.h>

#include "driver/i2c_master.h"
#include "esp_err.h"
#include "esp_log.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"

static const char *TAG = "i2c_temp";

#define SENSOR_ADDR        0x48
#define SENSOR_REG_TEMP    0x00
#define I2C_SDA_GPIO       GPIO_NUM_21
#define I2C_SCL_GPIO       GPIO_NUM_22
#define I2C_SPEED_HZ       100000
#define I2C_TIMEOUT_MS     50
#define SAMPLE_COUNT       10

static esp_err_t read_temperature(i2c_master_dev_handle_t dev, int32_t *milli_celsius)
{
	const uint8_t reg = SENSOR_REG_TEMP;
	uint8_t raw[2];

	esp_err_t err = i2c_master_transmit_receive(dev, &reg, sizeof(reg), raw, sizeof(raw), I2C_TIMEOUT_MS);
	if (err != ESP_OK) {
		return err;
	}

	int16_t counts = (int16_t)(((uint16_t)raw[0] << 8) | raw[1]) >> 4;
	*milli_celsius = (int32_t)counts * 625 / 10;
	return ESP_OK;
}

void app_main(void)
{
	i2c_master_bus_handle_t bus = NULL;
	i2c_master_dev_handle_t dev = NULL;

	const i2c_master_bus_config_t bus_cfg = {
		.i2c_port = I2C_NUM_0,
		.sda_io_num = I2C_SDA_GPIO,
		.scl_io_num = I2C_SCL_GPIO,
		.clk_source = I2C_CLK_SRC_DEFAULT,
		.glitch_ignore_cnt = 7,
		.flags.enable_internal_pullup = true,
	};
	esp_err_t err = i2c_new_master_bus(&bus_cfg, &bus);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "bus init failed: %s", esp_err_to_name(err));
		return;
	}

	const i2c_device_config_t dev_cfg = {
		.dev_addr_length = I2C_ADDR_BIT_LEN_7,
		.device_address = SENSOR_ADDR,
		.scl_speed_hz = I2C_SPEED_HZ,
	};
	err = i2c_master_bus_add_device(bus, &dev_cfg, &dev);
	if (err != ESP_OK) {
		ESP_LOGE(TAG, "adding sensor failed: %s", esp_err_to_name(err));
		i2c_del_master_bus(bus);
		return;
	}

	for (int i = 0; i < SAMPLE_COUNT; i++) {
		int32_t mc;

		err = read_temperature(dev, &mc);
		if (err != ESP_OK) {
			ESP_LOGE(TAG, "sensor read failed: %s", esp_err_to_name(err));
			break;
		}
		ESP_LOGI(TAG, "temperature: %ld mC", (long)mc);
		vTaskDelay(pdMS_TO_TICKS(1000));
	}

	ESP_ERROR_CHECK(i2c_master_bus_rm_device(dev));
	ESP_ERROR_CHECK(i2c_del_master_bus(bus));
}
