/*
 * NUCLEO-F401RE - LD2 (PA5) dimmed by TIM2 channel 1 PWM (STM32CubeF4 HAL).
 *
 * TIM2 runs from the untouched reset clock tree: HSI 16 MHz, APB1 /1 -> 16 MHz.
 * Prescaler 15 gives a 1 MHz count (1 us/tick); auto-reload 999 gives
 * 1000 ticks per period -> 1 kHz PWM, edge aligned, up counting, PWM mode 1.
 */
#include <stdint.h>
#include "stm32f4xx_hal.h"

TIM_HandleTypeDef htim2;

static volatile uint32_t pwm_period_us = 1000U;

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

void led_set_pulse(uint32_t high_us)
{
  uint32_t ccr = high_us;

  if (ccr > pwm_period_us)
  {
    ccr = pwm_period_us;     /* CCR1 = ARR + 1 -> output high for the whole period */
  }
  htim2.Instance->CCR1 = ccr;
}

static void pwm_hw_init(void)
{
  GPIO_InitTypeDef       gpio = {0};
  TIM_ClockConfigTypeDef clk  = {0};
  TIM_OC_InitTypeDef     oc   = {0};

  __HAL_RCC_GPIOA_CLK_ENABLE();
  __HAL_RCC_TIM2_CLK_ENABLE();

  gpio.Pin       = GPIO_PIN_5;
  gpio.Mode      = GPIO_MODE_AF_PP;
  gpio.Pull      = GPIO_NOPULL;
  gpio.Speed     = GPIO_SPEED_FREQ_LOW;
  gpio.Alternate = GPIO_AF1_TIM2;
  HAL_GPIO_Init(GPIOA, &gpio);

  htim2.Instance               = TIM2;
  htim2.Init.Prescaler         = 16U - 1U;
  htim2.Init.CounterMode       = TIM_COUNTERMODE_UP;
  htim2.Init.Period            = pwm_period_us - 1U;
  htim2.Init.ClockDivision     = TIM_CLOCKDIVISION_DIV1;
  htim2.Init.AutoReloadPreload = TIM_AUTORELOAD_PRELOAD_DISABLE;

  if (HAL_TIM_Base_Init(&htim2) != HAL_OK)
  {
    Error_Handler();
  }

  clk.ClockSource = TIM_CLOCKSOURCE_INTERNAL;
  if (HAL_TIM_ConfigClockSource(&htim2, &clk) != HAL_OK)
  {
    Error_Handler();
  }

  if (HAL_TIM_PWM_Init(&htim2) != HAL_OK)
  {
    Error_Handler();
  }

  oc.OCMode     = TIM_OCMODE_PWM1;
  oc.Pulse      = 0U;
  oc.OCPolarity = TIM_OCPOLARITY_HIGH;
  oc.OCFastMode = TIM_OCFAST_DISABLE;
  if (HAL_TIM_PWM_ConfigChannel(&htim2, &oc, TIM_CHANNEL_1) != HAL_OK)
  {
    Error_Handler();
  }
}

int main(void)
{
  uint32_t last_step;
  uint32_t high_us;

  if (HAL_Init() != HAL_OK)
  {
    Error_Handler();
  }

  pwm_hw_init();

  /* 25 % duty before the output is enabled. */
  led_set_pulse(pwm_period_us / 4U);

  if (HAL_TIM_PWM_Start(&htim2, TIM_CHANNEL_1) != HAL_OK)
  {
    Error_Handler();
  }

  HAL_Delay(2000);

  /* Ramp 0 .. full period in 10 us steps, one step every 5 ms, forever. */
  high_us   = 0U;
  led_set_pulse(high_us);
  last_step = HAL_GetTick();

  while (1)
  {
    if ((HAL_GetTick() - last_step) >= 5U)
    {
      last_step += 5U;

      high_us += 10U;
      if (high_us > pwm_period_us)
      {
        high_us = 0U;
      }
      led_set_pulse(high_us);
    }
    __WFI();   /* SysTick wakes the core every millisecond */
  }
}
