/*
 * main.c - NUCLEO-F401RE: dim LD2 (PA5) with TIM2 CH1 hardware PWM.
 *
 * Clock tree: reset default, 16 MHz HSI, AHB/APB1/APB2 prescalers = 1,
 * so the TIM2 kernel clock is 16 MHz.
 *
 *   PSC = 16 - 1   -> 16 MHz / 16   = 1 MHz timer tick (1 us)
 *   ARR = 1000 - 1 -> 1 MHz / 1000  = 1 kHz PWM frequency
 */
#include "stm32f4xx_hal.h"

#define TIM2_CLOCK_HZ      16000000UL
#define PWM_TICK_HZ        1000000UL      /* 1 us per tick            */
#define PWM_PERIOD_TICKS   1000UL         /* 1000 ticks = 1 ms = 1 kHz */

#define RAMP_STEP_US       10UL
#define RAMP_INTERVAL_MS   5UL

static TIM_HandleTypeDef htim2;

void Error_Handler(void);
void led_set_pulse(uint32_t high_us);
static void MX_TIM2_Init(void);

void SysTick_Handler(void)
{
  HAL_IncTick();
}

void led_set_pulse(uint32_t high_us)
{
  /* CCR >= ARR + 1 keeps the PWM1 output permanently active (fully lit). */
  if (high_us > PWM_PERIOD_TICKS)
  {
    high_us = PWM_PERIOD_TICKS;
  }
  __HAL_TIM_SET_COMPARE(&htim2, TIM_CHANNEL_1, high_us);
}

void HAL_TIM_PWM_MspInit(TIM_HandleTypeDef *htim)
{
  GPIO_InitTypeDef gpio = {0};

  if (htim->Instance == TIM2)
  {
    __HAL_RCC_TIM2_CLK_ENABLE();
    __HAL_RCC_GPIOA_CLK_ENABLE();

    /* PA5 -> TIM2_CH1 (AF1) */
    gpio.Pin       = GPIO_PIN_5;
    gpio.Mode      = GPIO_MODE_AF_PP;
    gpio.Pull      = GPIO_NOPULL;
    gpio.Speed     = GPIO_SPEED_FREQ_LOW;
    gpio.Alternate = GPIO_AF1_TIM2;
    HAL_GPIO_Init(GPIOA, &gpio);
  }
}

static void MX_TIM2_Init(void)
{
  TIM_OC_InitTypeDef oc = {0};

  htim2.Instance               = TIM2;
  htim2.Init.Prescaler         = (TIM2_CLOCK_HZ / PWM_TICK_HZ) - 1U;   /* 15  */
  htim2.Init.CounterMode       = TIM_COUNTERMODE_UP;
  htim2.Init.Period            = PWM_PERIOD_TICKS - 1U;               /* 999 */
  htim2.Init.ClockDivision     = TIM_CLOCKDIVISION_DIV1;
  htim2.Init.AutoReloadPreload = TIM_AUTORELOAD_PRELOAD_ENABLE;
  if (HAL_TIM_PWM_Init(&htim2) != HAL_OK)
  {
    Error_Handler();
  }

  oc.OCMode       = TIM_OCMODE_PWM1;
  oc.Pulse        = PWM_PERIOD_TICKS / 4U;        /* 25 % duty at start */
  oc.OCPolarity   = TIM_OCPOLARITY_HIGH;
  oc.OCNPolarity  = TIM_OCNPOLARITY_HIGH;
  oc.OCFastMode   = TIM_OCFAST_DISABLE;
  oc.OCIdleState  = TIM_OCIDLESTATE_RESET;
  oc.OCNIdleState = TIM_OCNIDLESTATE_RESET;
  if (HAL_TIM_PWM_ConfigChannel(&htim2, &oc, TIM_CHANNEL_1) != HAL_OK)
  {
    Error_Handler();
  }
}

int main(void)
{
  uint32_t pulse_us;
  uint32_t next;

  if (HAL_Init() != HAL_OK)
  {
    Error_Handler();
  }
  /* Clock tree is left at its reset default (16 MHz HSI, all prescalers 1). */

  MX_TIM2_Init();

  if (HAL_TIM_PWM_Start(&htim2, TIM_CHANNEL_1) != HAL_OK)
  {
    Error_Handler();
  }

  /* Start at 25 % duty and show it for a moment. */
  led_set_pulse(PWM_PERIOD_TICKS / 4U);
  HAL_Delay(1000);

  next = HAL_GetTick();
  for (;;)
  {
    for (pulse_us = 0U; pulse_us <= PWM_PERIOD_TICKS; pulse_us += RAMP_STEP_US)
    {
      led_set_pulse(pulse_us);

      /* Fixed-rate schedule: one step every 5 ms without drift. */
      next += RAMP_INTERVAL_MS;
      while ((int32_t)(HAL_GetTick() - next) < 0)
      {
      }
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
