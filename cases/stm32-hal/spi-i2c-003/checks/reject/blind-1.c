/* defect: The raw 7-bit address 0x48 is passed to the HAL, which expects it left-shifted (0x90), so every transfer addresses 0x24 and the present sensor never answers.
 * breaks: "At start-up, make sure the sensor answers on the bus (retrying a few times, without waiting long); if it never answers, treat it as a fatal error."
 * must_fail: device_address_shifted_left
 */
/*
 * main.c - NUCLEO-F401RE + TMP102 on I2C1 (PB8 = SCL, PB9 = SDA).
 * STM32CubeF4 HAL, blocking (polling) I2C, core on the reset 16 MHz HSI.
 */
#include "stm32f4xx_hal.h"

#define TMP102_ADDR           0x48U                     /* 7-bit address */
#define TMP102_REG_TEMP       0x00U

#define I2C_TIMEOUT_MS        10U
#define PROBE_TRIALS          5U
#define PROBE_TIMEOUT_MS      5U
#define READ_PERIOD_MS        1000U

I2C_HandleTypeDef hi2c1;

/* Latest raw temperature register value. */
volatile uint16_t temp_raw;

void Error_Handler(void);
int tmp102_read_raw(uint16_t *raw);

void SysTick_Handler(void)
{
  HAL_IncTick();
}

void HAL_I2C_MspInit(I2C_HandleTypeDef *hi2c)
{
  GPIO_InitTypeDef gpio = {0};

  if (hi2c->Instance == I2C1)
  {
    __HAL_RCC_GPIOB_CLK_ENABLE();

    /* PB8 = I2C1_SCL, PB9 = I2C1_SDA, AF4, open drain (external pull-ups) */
    gpio.Pin       = GPIO_PIN_8 | GPIO_PIN_9;
    gpio.Mode      = GPIO_MODE_AF_OD;
    gpio.Pull      = GPIO_NOPULL;
    gpio.Speed     = GPIO_SPEED_FREQ_VERY_HIGH;
    gpio.Alternate = GPIO_AF4_I2C1;
    HAL_GPIO_Init(GPIOB, &gpio);

    __HAL_RCC_I2C1_CLK_ENABLE();
  }
}

static void MX_I2C1_Init(void)
{
  hi2c1.Instance             = I2C1;
  hi2c1.Init.ClockSpeed      = 100000U;
  hi2c1.Init.DutyCycle       = I2C_DUTYCYCLE_2;
  hi2c1.Init.OwnAddress1     = 0U;
  hi2c1.Init.AddressingMode  = I2C_ADDRESSINGMODE_7BIT;
  hi2c1.Init.DualAddressMode = I2C_DUALADDRESS_DISABLE;
  hi2c1.Init.OwnAddress2     = 0U;
  hi2c1.Init.GeneralCallMode = I2C_GENERALCALL_DISABLE;
  hi2c1.Init.NoStretchMode   = I2C_NOSTRETCH_DISABLE;
  if (HAL_I2C_Init(&hi2c1) != HAL_OK)
  {
    Error_Handler();
  }
}

int tmp102_read_raw(uint16_t *raw)
{
  uint8_t buf[2];

  if (raw == NULL)
  {
    return -1;
  }

  if (HAL_I2C_Mem_Read(&hi2c1, TMP102_ADDR, TMP102_REG_TEMP,
                       I2C_MEMADD_SIZE_8BIT, buf, sizeof(buf),
                       I2C_TIMEOUT_MS) != HAL_OK)
  {
    return -1;
  }

  /* MSB first */
  *raw = (uint16_t)(((uint16_t)buf[0] << 8) | buf[1]);
  return 0;
}

int main(void)
{
  uint32_t next;

  if (HAL_Init() != HAL_OK)
  {
    Error_Handler();
  }

  MX_I2C1_Init();

  /* Presence check: a few quick address probes, fatal if nobody ACKs. */
  if (HAL_I2C_IsDeviceReady(&hi2c1, TMP102_ADDR, PROBE_TRIALS,
                            PROBE_TIMEOUT_MS) != HAL_OK)
  {
    Error_Handler();
  }

  next = HAL_GetTick();
  while (1)
  {
    uint16_t raw;

    if (tmp102_read_raw(&raw) == 0)
    {
      temp_raw = raw;
    }
    /* on failure temp_raw keeps its previous value */

    next += READ_PERIOD_MS;
    while ((int32_t)(HAL_GetTick() - next) < 0)
    {
      __WFI();
    }
  }
}

void Error_Handler(void)
{
  __disable_irq();
  while (1)
  {
  }
}

#ifdef USE_FULL_ASSERT
void assert_failed(uint8_t *file, uint32_t line)
{
  (void)file;
  (void)line;
  Error_Handler();
}
#endif
