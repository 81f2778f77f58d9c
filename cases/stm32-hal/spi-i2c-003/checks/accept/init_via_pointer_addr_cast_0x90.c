#include "stm32f4xx_hal.h"

#define TMP102_ADDR     ((uint16_t)0x90U)
#define TMP102_REG_TEMP 0x00U
#define I2C_TIMEOUT_MS  10U

I2C_HandleTypeDef hi2c1;
volatile uint16_t temp_raw;

static void i2c1_init(void);
int tmp102_read_raw(uint16_t *raw);
void Error_Handler(void);

int main(void)
{
	uint16_t raw;

	HAL_Init();
	i2c1_init();

	if (HAL_I2C_IsDeviceReady(&hi2c1, TMP102_ADDR, 3, I2C_TIMEOUT_MS) != HAL_OK) {
		Error_Handler();
	}

	while (1) {
		if (tmp102_read_raw(&raw) == 0) {
			temp_raw = raw;
		}
		HAL_Delay(1000);
	}
}

static void i2c1_init(void)
{
	I2C_InitTypeDef *cfg = &hi2c1.Init;

	hi2c1.Instance = I2C1;
	cfg->ClockSpeed = 100000;
	cfg->DutyCycle = I2C_DUTYCYCLE_2;
	cfg->OwnAddress1 = 0;
	cfg->AddressingMode = I2C_ADDRESSINGMODE_7BIT;
	cfg->DualAddressMode = I2C_DUALADDRESS_DISABLE;
	cfg->OwnAddress2 = 0;
	cfg->GeneralCallMode = I2C_GENERALCALL_DISABLE;
	cfg->NoStretchMode = I2C_NOSTRETCH_DISABLE;

	if (HAL_I2C_Init(&hi2c1) != HAL_OK) {
		Error_Handler();
	}
}

void HAL_I2C_MspInit(I2C_HandleTypeDef *hi2c)
{
	GPIO_InitTypeDef gpio = {0};

	if (hi2c->Instance != I2C1) {
		return;
	}

	__HAL_RCC_GPIOB_CLK_ENABLE();

	gpio.Pin = GPIO_PIN_8 | GPIO_PIN_9;
	gpio.Mode = GPIO_MODE_AF_OD;
	gpio.Pull = GPIO_NOPULL;
	gpio.Speed = GPIO_SPEED_FREQ_VERY_HIGH;
	gpio.Alternate = GPIO_AF4_I2C1;
	HAL_GPIO_Init(GPIOB, &gpio);

	__HAL_RCC_I2C1_CLK_ENABLE();
}

int tmp102_read_raw(uint16_t *raw)
{
	uint8_t buf[2];

	if (HAL_I2C_Mem_Read(&hi2c1, TMP102_ADDR, TMP102_REG_TEMP, I2C_MEMADD_SIZE_8BIT,
			     buf, sizeof(buf), I2C_TIMEOUT_MS) != HAL_OK) {
		return -1;
	}
	*raw = (uint16_t)((buf[0] << 8) | buf[1]);
	return 0;
}

void SysTick_Handler(void)
{
	HAL_IncTick();
}

void Error_Handler(void)
{
	__disable_irq();
	while (1) {
	}
}
