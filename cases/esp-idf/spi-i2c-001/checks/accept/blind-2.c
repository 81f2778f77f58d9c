#include <stdbool.h>
#include <stdint.h>
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"
#include "esp_err.h"
#include "esp_log.h"
#include "driver/i2c_master.h"

#define TAG             "i2c_temp"
#define SENSOR_ADDR     0x48
#define TEMP_REG        0x00
#define TIMEOUT_MS      50
#define SAMPLES         10

static void run_measurements(i2c_master_bus_handle_t bus, i2c_master_dev_handle_t sensor)
{
    /* A missing sensor NACKs, a stuck bus times out: both end the run. */
    esp_err_t err = i2c_master_probe(bus, SENSOR_ADDR, TIMEOUT_MS);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "sensor at 0x%02x not responding: %s", SENSOR_ADDR, esp_err_to_name(err));
        return;
    }

    TickType_t last = xTaskGetTickCount();
    for (int n = 0; n < SAMPLES; n++) {
        if (n > 0) {
            vTaskDelayUntil(&last, pdMS_TO_TICKS(1000));
        }

        uint8_t cmd = TEMP_REG;
        uint8_t rx[2];
        err = i2c_master_transmit_receive(sensor, &cmd, 1, rx, 2, TIMEOUT_MS);
        if (err != ESP_OK) {
            ESP_LOGE(TAG, "reading temperature register failed: %s", esp_err_to_name(err));
            return;
        }

        /* 12-bit two's complement in bits 15..4 */
        int value = (rx[0] << 4) | (rx[1] >> 4);
        if (value & 0x800) {
            value -= 0x1000;
        }
        int millicelsius = (value * 1000) / 16;   /* 0.0625 degC = 1000/16 mC per LSB */
        ESP_LOGI(TAG, "temperature: %d mC", millicelsius);
    }
}

void app_main(void)
{
    i2c_master_bus_config_t bus_config = {
        .clk_source = I2C_CLK_SRC_DEFAULT,
        .i2c_port = I2C_NUM_0,
        .scl_io_num = GPIO_NUM_22,
        .sda_io_num = GPIO_NUM_21,
        .glitch_ignore_cnt = 7,
    };
    bus_config.flags.enable_internal_pullup = 1;

    i2c_master_bus_handle_t bus;
    esp_err_t err = i2c_new_master_bus(&bus_config, &bus);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "cannot create I2C bus: %s", esp_err_to_name(err));
        return;
    }

    i2c_device_config_t dev_config = {
        .dev_addr_length = I2C_ADDR_BIT_LEN_7,
        .device_address = SENSOR_ADDR,
        .scl_speed_hz = 100 * 1000,
    };
    i2c_master_dev_handle_t sensor;
    err = i2c_master_bus_add_device(bus, &dev_config, &sensor);
    if (err == ESP_OK) {
        run_measurements(bus, sensor);

        err = i2c_master_bus_rm_device(sensor);
        if (err != ESP_OK) {
            ESP_LOGE(TAG, "cannot remove I2C device: %s", esp_err_to_name(err));
        }
    } else {
        ESP_LOGE(TAG, "cannot add sensor to the bus: %s", esp_err_to_name(err));
    }

    err = i2c_del_master_bus(bus);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "cannot delete I2C bus: %s", esp_err_to_name(err));
    }
}
