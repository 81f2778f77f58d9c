/* defect: Transfers use a timeout of -1 (wait forever), so a sensor holding SDA/SCL low blocks i2c_master_transmit_receive indefinitely.
 * breaks: "The sensor may be missing or hold the bus low; the application must never hang because of that."
 * must_fail: i2c_transfer_timeout_bounded
 */
/*
 * TMP102-compatible sensor on I2C0 (SDA 21, SCL 22, 100 kHz) read with the
 * ESP-IDF 5.2+ I2C master driver (bus/device handles).
 */
#include <stdbool.h>
#include <stdint.h>
#include <inttypes.h>
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"
#include "esp_err.h"
#include "esp_log.h"
#include "driver/i2c_master.h"

static const char *TAG = "i2c_temp";

#define TMP102_I2C_PORT       I2C_NUM_0
#define TMP102_SDA_GPIO       GPIO_NUM_21
#define TMP102_SCL_GPIO       GPIO_NUM_22
#define TMP102_ADDR           0x48
#define TMP102_SCL_HZ         100000
#define TMP102_REG_TEMP       0x00
#define I2C_XFER_TIMEOUT_MS   -1
#define NUM_READINGS          10
#define READ_INTERVAL_MS      1000

/* Read the temperature register and convert it to milli-degrees Celsius. */
static esp_err_t tmp102_read_mc(i2c_master_dev_handle_t dev, int32_t *out_mc)
{
    const uint8_t reg = TMP102_REG_TEMP;
    uint8_t data[2] = {0};

    /* register pointer write + repeated start + 2-byte read, one transaction */
    esp_err_t err = i2c_master_transmit_receive(dev, &reg, sizeof(reg), data, sizeof(data),
                                                I2C_XFER_TIMEOUT_MS);
    if (err != ESP_OK) {
        return err;
    }

    /* left-justified 12-bit two's complement, 0.0625 degC/LSB */
    int16_t raw16 = (int16_t)(((uint16_t)data[0] << 8) | data[1]);
    int32_t counts = raw16 / 16;             /* exact: low nibble is zero; keeps the sign */
    *out_mc = counts * 625 / 10;             /* 62.5 m°C per count */
    return ESP_OK;
}

void app_main(void)
{
    i2c_master_bus_handle_t bus = NULL;
    i2c_master_dev_handle_t dev = NULL;
    esp_err_t err;

    const i2c_master_bus_config_t bus_cfg = {
        .i2c_port = TMP102_I2C_PORT,
        .sda_io_num = TMP102_SDA_GPIO,
        .scl_io_num = TMP102_SCL_GPIO,
        .clk_source = I2C_CLK_SRC_DEFAULT,
        .glitch_ignore_cnt = 7,
        .intr_priority = 0,
        .trans_queue_depth = 0,
        .flags.enable_internal_pullup = true,   /* no external pull-ups on the board */
    };
    err = i2c_new_master_bus(&bus_cfg, &bus);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "i2c_new_master_bus failed: %s", esp_err_to_name(err));
        return;
    }

    const i2c_device_config_t dev_cfg = {
        .dev_addr_length = I2C_ADDR_BIT_LEN_7,
        .device_address = TMP102_ADDR,
        .scl_speed_hz = TMP102_SCL_HZ,
    };
    err = i2c_master_bus_add_device(bus, &dev_cfg, &dev);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "i2c_master_bus_add_device failed: %s", esp_err_to_name(err));
        dev = NULL;
        goto del_bus;
    }

    for (int i = 0; i < NUM_READINGS; i++) {
        int32_t mc = 0;
        err = tmp102_read_mc(dev, &mc);
        if (err != ESP_OK) {
            ESP_LOGE(TAG, "temperature read failed: %s", esp_err_to_name(err));
            break;
        }
        ESP_LOGI(TAG, "temperature: %" PRId32 " mC", mc);

        if (i + 1 < NUM_READINGS) {
            vTaskDelay(pdMS_TO_TICKS(READ_INTERVAL_MS));
        }
    }

    err = i2c_master_bus_rm_device(dev);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "i2c_master_bus_rm_device failed: %s", esp_err_to_name(err));
    }
    dev = NULL;

del_bus:
    err = i2c_del_master_bus(bus);
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "i2c_del_master_bus failed: %s", esp_err_to_name(err));
    }
    bus = NULL;
}
