/* defect: The two received bytes are combined with the second byte as the high byte, so the MSB-first temperature register ends up byte-swapped in *raw.
 * breaks: "Provide `int tmp102_read_raw(uint16_t *raw)`: it reads the sensor's 16-bit temperature register (register address `0x00`, most significant byte first) and stores it in `*raw`; it returns 0 on success and -1 on any bus failure."
 * must_fail: register_read_16bit_bounded
 */
/*
 * NUCLEO-F401RE: read a TMP102 (0x48) over I2C1 on the Arduino header
 * (D15 = PB8 = SCL, D14 = PB9 = SDA), STM32CubeF4 HAL polling API.
 * SYSCLK stays on the reset-default HSI (16 MHz), so PCLK1 = 16 MHz.
 */
#include <stddef.h>
#include <stdint.h>
#include "stm32f4xx_hal.h"

#define TMP102_I2C_ADDR   (0x48U << 1)   /* 7-bit address, left aligned for the HAL */
#define TMP102_TEMP_REG   0x00U

static I2C_HandleTypeDef i2c1;

uint16_t temp_raw;

void Error_Handler(void)
{
  __disable_irq();
  for (;;)
  {
  }
}

void SysTick_Handler(void)
{
  HAL_IncTick();
}

static void i2c1_init(void)
{
  GPIO_InitTypeDef pins = {0};

  __HAL_RCC_GPIOB_CLK_ENABLE();
  __HAL_RCC_I2C1_CLK_ENABLE();

  pins.Pin       = GPIO_PIN_8 | GPIO_PIN_9;
  pins.Mode      = GPIO_MODE_AF_OD;
  pins.Pull      = GPIO_PULLUP;           /* board has 4.7k; internal ones do no harm */
  pins.Speed     = GPIO_SPEED_FREQ_HIGH;
  pins.Alternate = GPIO_AF4_I2C1;
  HAL_GPIO_Init(GPIOB, &pins);

  /* Clean peripheral state before configuring it. */
  __HAL_RCC_I2C1_FORCE_RESET();
  __HAL_RCC_I2C1_RELEASE_RESET();

  i2c1.Instance             = I2C1;
  i2c1.Init.ClockSpeed      = 100000U;             /* standard mode */
  i2c1.Init.DutyCycle       = I2C_DUTYCYCLE_2;
  i2c1.Init.OwnAddress1     = 0x00U;
  i2c1.Init.AddressingMode  = I2C_ADDRESSINGMODE_7BIT;
  i2c1.Init.DualAddressMode = I2C_DUALADDRESS_DISABLE;
  i2c1.Init.OwnAddress2     = 0x00U;
  i2c1.Init.GeneralCallMode = I2C_GENERALCALL_DISABLE;
  i2c1.Init.NoStretchMode   = I2C_NOSTRETCH_DISABLE;

  if (HAL_I2C_Init(&i2c1) != HAL_OK)
  {
    Error_Handler();
  }
}

static void tmp102_wait_present(void)
{
  uint32_t attempt;

  for (attempt = 0U; attempt < 5U; attempt++)
  {
    if (HAL_I2C_IsDeviceReady(&i2c1, TMP102_I2C_ADDR, 1U, 10U) == HAL_OK)
    {
      return;
    }
    HAL_Delay(10U);
  }

  /* No ACK after ~100 ms in total: sensor missing. */
  Error_Handler();
}

int tmp102_read_raw(uint16_t *raw)
{
  uint8_t reg = TMP102_TEMP_REG;
  uint8_t rx[2] = {0U, 0U};

  if (raw == NULL)
  {
    return -1;
  }

  /* Set the pointer register, then read two bytes (MSB, LSB). */
  if (HAL_I2C_Master_Transmit(&i2c1, TMP102_I2C_ADDR, &reg, 1U, 20U) != HAL_OK)
  {
    return -1;
  }
  if (HAL_I2C_Master_Receive(&i2c1, TMP102_I2C_ADDR, rx, 2U, 20U) != HAL_OK)
  {
    return -1;
  }

  *raw = (uint16_t)((uint16_t)(rx[1] << 8) | (uint16_t)rx[0]);
  return 0;
}

int main(void)
{
  uint32_t last;

  if (HAL_Init() != HAL_OK)
  {
    Error_Handler();
  }

  i2c1_init();
  tmp102_wait_present();

  last = HAL_GetTick() - 1000U;     /* first read immediately */
  for (;;)
  {
    if ((HAL_GetTick() - last) >= 1000U)
    {
      uint16_t value;

      last += 1000U;
      if (tmp102_read_raw(&value) == 0)
      {
        temp_raw = value;
      }
    }
  }
}
