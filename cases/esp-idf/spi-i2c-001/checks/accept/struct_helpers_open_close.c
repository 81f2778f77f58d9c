/*
 * TMP102 reader: the driver handles live in one struct, opened and closed by
 * dedicated helpers; the sampling loop reports the first failure to app_main.
 */
#include <stddef.h>
#include <stdint.h>

#include "driver/gpio.h"
#include "driver/i2c_master.h"
#include "esp_err.h"
#include "esp_log.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"

#define LOG_TAG "i2c_temp"

typedef struct {
	i2c_master_bus_handle_t bus;
	i2c_master_dev_handle_t dev;
} tmp102_t;

static const int xfer_timeout_ms = 20;
static const unsigned samples_wanted = 10;

static void tmp102_close(tmp102_t *s)
{
	if (s->dev != NULL) {
		esp_err_t rc = i2c_master_bus_rm_device(s->dev);
		if (rc != ESP_OK) {
			ESP_LOGE(LOG_TAG, "removing the sensor failed: %s", esp_err_to_name(rc));
		}
		s->dev = NULL;
	}
	if (s->bus != NULL) {
		esp_err_t rc = i2c_del_master_bus(s->bus);
		if (rc != ESP_OK) {
			ESP_LOGE(LOG_TAG, "deleting the bus failed: %s", esp_err_to_name(rc));
		}
		s->bus = NULL;
	}
}

static esp_err_t tmp102_open(tmp102_t *s)
{
	i2c_master_bus_config_t bus_conf = {0};
	bus_conf.i2c_port = I2C_NUM_0;
	bus_conf.sda_io_num = GPIO_NUM_21;
	bus_conf.scl_io_num = GPIO_NUM_22;
	bus_conf.clk_source = I2C_CLK_SRC_DEFAULT;
	bus_conf.glitch_ignore_cnt = 7;
	bus_conf.flags.enable_internal_pullup = 1;

	esp_err_t rc = i2c_new_master_bus(&bus_conf, &s->bus);
	if (rc != ESP_OK) {
		ESP_LOGE(LOG_TAG, "cannot create I2C bus: %s", esp_err_to_name(rc));
		s->bus = NULL;
		return rc;
	}

	i2c_device_config_t dev_conf = {0};
	dev_conf.dev_addr_length = I2C_ADDR_BIT_LEN_7;
	dev_conf.device_address = 0x48;
	dev_conf.scl_speed_hz = 100000;

	rc = i2c_master_bus_add_device(s->bus, &dev_conf, &s->dev);
	if (rc != ESP_OK) {
		ESP_LOGE(LOG_TAG, "cannot attach TMP102: %s", esp_err_to_name(rc));
		i2c_del_master_bus(s->bus);
		s->bus = NULL;
		s->dev = NULL;
	}
	return rc;
}

/* One combined write-register / read-two-bytes transaction (repeated start). */
static esp_err_t tmp102_sample(const tmp102_t *s, int32_t *out_mc)
{
	uint8_t pointer_reg = 0x00;
	uint8_t rx[2] = {0, 0};

	esp_err_t rc = i2c_master_transmit_receive(s->dev, &pointer_reg, 1, rx, sizeof rx, xfer_timeout_ms);
	if (rc != ESP_OK) {
		return rc;
	}
	/* Left-justified 12-bit value: raw/16 counts of 62.5 mC = raw * 125 / 32. */
	int16_t word = (int16_t)(uint16_t)((rx[0] << 8) | rx[1]);
	*out_mc = ((int32_t)word * 125) / 32;
	return ESP_OK;
}

static esp_err_t tmp102_run(const tmp102_t *s)
{
	unsigned done = 0;

	while (done < samples_wanted) {
		int32_t mc = 0;
		esp_err_t rc = tmp102_sample(s, &mc);
		if (rc != ESP_OK) {
			ESP_LOGE(LOG_TAG, "reading the sensor failed: %s", esp_err_to_name(rc));
			return rc;
		}
		ESP_LOGI(LOG_TAG, "temperature: %ld mC", (long)mc);
		done++;
		if (done < samples_wanted) {
			vTaskDelay(pdMS_TO_TICKS(1000));
		}
	}
	return ESP_OK;
}

void app_main(void)
{
	tmp102_t sensor = { .bus = NULL, .dev = NULL };

	if (tmp102_open(&sensor) != ESP_OK) {
		return;
	}
	(void)tmp102_run(&sensor);
	tmp102_close(&sensor);
}
