#include <stdint.h>
#include "stm32f4xx_hal.h"

/* The TMP102 answers at 7-bit address 0x48; the HAL takes it in bits 7..1: 0x48 << 1. */
#define TMP102_BUS_ADDR    0x90U
#define TMP102_PTR_TEMP    0x00U
#define TMP102_PROBE_TRIES 4U
#define BUS_WAIT_MS        5U
#define SAMPLE_PERIOD_MS   1000U

I2C_HandleTypeDef sensor_bus;
volatile uint16_t temp_raw;

void Error_Handler(void)
{
	__disable_irq();
	for (;;) {
	}
}

void SysTick_Handler(void)
{
	HAL_IncTick();
}

/* Called back from HAL_I2C_Init(): clocks and PB8/PB9 muxing for I2C1. */
void HAL_I2C_MspInit(I2C_HandleTypeDef *hi2c)
{
	if (hi2c->Instance == I2C1) {
		GPIO_InitTypeDef pins = {
			.Pin = GPIO_PIN_8 | GPIO_PIN_9,
			.Mode = GPIO_MODE_AF_OD,
			.Pull = GPIO_NOPULL,
			.Speed = GPIO_SPEED_FREQ_HIGH,
			.Alternate = GPIO_AF4_I2C1,
		};

		__HAL_RCC_GPIOB_CLK_ENABLE();
		HAL_GPIO_Init(GPIOB, &pins);
		__HAL_RCC_I2C1_CLK_ENABLE();
	}
}

static void sensor_bus_start(void)
{
	sensor_bus.Instance = I2C1;
	sensor_bus.Init.AddressingMode = I2C_ADDRESSINGMODE_7BIT;
	sensor_bus.Init.ClockSpeed = 100000U;
	sensor_bus.Init.DutyCycle = I2C_DUTYCYCLE_2;
	sensor_bus.Init.NoStretchMode = I2C_NOSTRETCH_DISABLE;
	sensor_bus.Init.GeneralCallMode = I2C_GENERALCALL_DISABLE;
	sensor_bus.Init.DualAddressMode = I2C_DUALADDRESS_DISABLE;
	sensor_bus.Init.OwnAddress1 = 0U;
	sensor_bus.Init.OwnAddress2 = 0U;

	HAL_StatusTypeDef status = HAL_I2C_Init(&sensor_bus);
	if (status != HAL_OK) {
		Error_Handler();
	}
}

/* A few short single-trial probes; returns 1 once the sensor ACKs its address. */
static int tmp102_present(void)
{
	for (uint32_t attempt = 0U; attempt < TMP102_PROBE_TRIES; attempt++) {
		if (HAL_I2C_IsDeviceReady(&sensor_bus, TMP102_BUS_ADDR, 1U, BUS_WAIT_MS) != HAL_OK) {
			HAL_Delay(1U);
			continue;
		}
		return 1;
	}
	return 0;
}

int tmp102_read_raw(uint16_t *raw)
{
	uint8_t rx[2];
	HAL_StatusTypeDef status;

	status = HAL_I2C_Mem_Read(&sensor_bus, TMP102_BUS_ADDR, TMP102_PTR_TEMP,
				  I2C_MEMADD_SIZE_8BIT, rx, 2U, BUS_WAIT_MS);
	if (status == HAL_OK) {
		/* MSB first on the wire */
		*raw = (uint16_t)(((uint16_t)rx[0] << 8) | rx[1]);
	}
	return (status == HAL_OK) ? 0 : -1;
}

int main(void)
{
	uint32_t due;

	HAL_Init();
	sensor_bus_start();
	if (tmp102_present() == 0) {
		Error_Handler();
	}

	due = HAL_GetTick();
	for (;;) {
		uint16_t sample;

		if ((int32_t)(HAL_GetTick() - due) < 0) {
			continue;
		}
		due += SAMPLE_PERIOD_MS;
		if (tmp102_read_raw(&sample) == 0) {
			temp_raw = sample;
		}
	}
}
