/*
 * NUCLEO-F401RE: PWM input measurement on PA0 (A0) with TIM2 CH1/CH2.
 * STM32CubeF4 HAL, SysTick time base.
 *
 *  HSI 16 MHz, no PLL: SYSCLK = HCLK = 16 MHz, PCLK1 = HCLK/4 = 4 MHz,
 *  PCLK2 = 16 MHz.  APB1 timers are clocked at 2 x PCLK1 = 8 MHz when the
 *  APB1 prescaler is > 1.
 *
 *  TIM2 is 32 bits wide, prescaler 1 (PSC = 0) -> 125 ns resolution
 *  (0.0625 % of a 5 kHz period), 10 Hz = 800000 counts, no wrap.
 */
#include <stdint.h>
#include "stm32f4xx_hal.h"

#define HCLK_HZ            16000000UL
#define PCLK1_HZ           (HCLK_HZ / 4UL)
#define TIM2_KERNEL_HZ     (PCLK1_HZ * 2UL)         /* APB1 prescaler != 1 */
#define TIM2_PRESCALER     0UL
#define TIM2_TICK_HZ       (TIM2_KERNEL_HZ / (TIM2_PRESCALER + 1UL))

#define NO_SIGNAL_MS       500UL
#define POLL_INTERVAL_MS   100UL

volatile uint32_t pwm_freq_centihz;
volatile uint32_t pwm_duty_permille;

TIM_HandleTypeDef htim2;

/* Latched by the capture interrupt, consumed in thread mode. */
static volatile uint32_t m_period;     /* ticks, rising -> rising */
static volatile uint32_t m_high;       /* ticks, rising -> falling */
static volatile uint32_t m_stamp;      /* HAL tick of the capture  */
static volatile uint32_t m_seq;        /* bumped on every publication */
static volatile uint32_t m_valid;      /* a complete cycle was captured */

static uint32_t isr_prev_edge_ms;
static uint32_t isr_edges;

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

void TIM2_IRQHandler(void)
{
  HAL_TIM_IRQHandler(&htim2);
}

static void clock_init(void)
{
  RCC_OscInitTypeDef osc = {0};
  RCC_ClkInitTypeDef clk = {0};

  osc.OscillatorType      = RCC_OSCILLATORTYPE_HSI;
  osc.HSIState            = RCC_HSI_ON;
  osc.HSICalibrationValue = RCC_HSICALIBRATION_DEFAULT;
  osc.PLL.PLLState        = RCC_PLL_NONE;
  if (HAL_RCC_OscConfig(&osc) != HAL_OK)
  {
    Error_Handler();
  }

  clk.ClockType      = RCC_CLOCKTYPE_HCLK | RCC_CLOCKTYPE_SYSCLK |
                       RCC_CLOCKTYPE_PCLK1 | RCC_CLOCKTYPE_PCLK2;
  clk.SYSCLKSource   = RCC_SYSCLKSOURCE_HSI;
  clk.AHBCLKDivider  = RCC_SYSCLK_DIV1;
  clk.APB1CLKDivider = RCC_HCLK_DIV4;
  clk.APB2CLKDivider = RCC_HCLK_DIV1;
  if (HAL_RCC_ClockConfig(&clk, FLASH_LATENCY_0) != HAL_OK)
  {
    Error_Handler();
  }
}

void HAL_TIM_Base_MspInit(TIM_HandleTypeDef *htim)
{
  GPIO_InitTypeDef io = {0};

  if (htim->Instance != TIM2)
  {
    return;
  }

  __HAL_RCC_GPIOA_CLK_ENABLE();
  __HAL_RCC_TIM2_CLK_ENABLE();

  io.Pin       = GPIO_PIN_0;               /* TIM2_CH1 */
  io.Mode      = GPIO_MODE_AF_PP;
  io.Pull      = GPIO_PULLDOWN;            /* defined level when unplugged */
  io.Speed     = GPIO_SPEED_FREQ_LOW;
  io.Alternate = GPIO_AF1_TIM2;
  HAL_GPIO_Init(GPIOA, &io);

  HAL_NVIC_SetPriority(TIM2_IRQn, 2U, 0U);
  HAL_NVIC_EnableIRQ(TIM2_IRQn);
}

static void pwm_input_init(void)
{
  TIM_ClockConfigTypeDef src   = {0};
  TIM_SlaveConfigTypeDef slave = {0};
  TIM_IC_InitTypeDef     ch    = {0};

  htim2.Instance               = TIM2;
  htim2.Init.Prescaler         = TIM2_PRESCALER;
  htim2.Init.CounterMode       = TIM_COUNTERMODE_UP;
  htim2.Init.Period            = 0xFFFFFFFFUL;
  htim2.Init.ClockDivision     = TIM_CLOCKDIVISION_DIV1;
  htim2.Init.AutoReloadPreload = TIM_AUTORELOAD_PRELOAD_DISABLE;
  if (HAL_TIM_Base_Init(&htim2) != HAL_OK)
  {
    Error_Handler();
  }

  src.ClockSource = TIM_CLOCKSOURCE_INTERNAL;
  if (HAL_TIM_ConfigClockSource(&htim2, &src) != HAL_OK)
  {
    Error_Handler();
  }

  if (HAL_TIM_IC_Init(&htim2) != HAL_OK)
  {
    Error_Handler();
  }

  slave.SlaveMode        = TIM_SLAVEMODE_RESET;
  slave.InputTrigger     = TIM_TS_TI1FP1;
  slave.TriggerPolarity  = TIM_INPUTCHANNELPOLARITY_RISING;
  slave.TriggerPrescaler = TIM_ICPSC_DIV1;
  slave.TriggerFilter    = 0U;
  if (HAL_TIM_SlaveConfigSynchro(&htim2, &slave) != HAL_OK)
  {
    Error_Handler();
  }

  ch.ICPolarity  = TIM_INPUTCHANNELPOLARITY_RISING;
  ch.ICSelection = TIM_ICSELECTION_DIRECTTI;      /* IC1 <- TI1 */
  ch.ICPrescaler = TIM_ICPSC_DIV1;
  ch.ICFilter    = 0U;
  if (HAL_TIM_IC_ConfigChannel(&htim2, &ch, TIM_CHANNEL_1) != HAL_OK)
  {
    Error_Handler();
  }

  ch.ICPolarity  = TIM_INPUTCHANNELPOLARITY_FALLING;
  ch.ICSelection = TIM_ICSELECTION_INDIRECTTI;    /* IC2 <- TI1 */
  if (HAL_TIM_IC_ConfigChannel(&htim2, &ch, TIM_CHANNEL_2) != HAL_OK)
  {
    Error_Handler();
  }
}

/* Interrupt side: latch raw counts of the cycle that just ended, nothing else. */
void HAL_TIM_IC_CaptureCallback(TIM_HandleTypeDef *htim)
{
  uint32_t ccr2;
  uint32_t ccr1;
  uint32_t now;

  if (htim->Instance != TIM2 || htim->Channel != HAL_TIM_ACTIVE_CHANNEL_1)
  {
    return;
  }

  ccr2 = htim->Instance->CCR2;     /* falling edge of the cycle just ended */
  ccr1 = htim->Instance->CCR1;     /* its period (clears CC1IF as well)    */
  now  = HAL_GetTick();

  if (isr_edges != 0U && (now - isr_prev_edge_ms) <= NO_SIGNAL_MS)
  {
    m_period = ccr1;
    m_high   = ccr2;
    m_stamp  = now;
    m_valid  = 1U;
    m_seq    = m_seq + 1U;
  }
  /* Otherwise this edge only starts a new cycle (first edge, or after a gap). */

  isr_prev_edge_ms = now;
  if (isr_edges < 2U)
  {
    isr_edges++;
  }
}

void pwm_input_get(uint32_t *freq_centihz, uint32_t *duty_permille)
{
  uint32_t seq;
  uint32_t period;
  uint32_t high;
  uint32_t stamp;
  uint32_t valid;

  /* Re-read until no capture interrupt slipped in between the reads. */
  do
  {
    seq    = m_seq;
    period = m_period;
    high   = m_high;
    stamp  = m_stamp;
    valid  = m_valid;
  } while (seq != m_seq);

  if (valid == 0U || period == 0U || (HAL_GetTick() - stamp) > NO_SIGNAL_MS)
  {
    *freq_centihz  = 0U;
    *duty_permille = 0U;
    return;
  }

  *freq_centihz = (uint32_t)(((uint64_t)TIM2_TICK_HZ * 100ULL) / period);

  if (high >= period)
  {
    *duty_permille = 1000U;
  }
  else
  {
    *duty_permille = (uint32_t)(((uint64_t)high * 1000ULL) / period);
  }
}

int main(void)
{
  uint32_t last;
  uint32_t freq;
  uint32_t duty;

  if (HAL_Init() != HAL_OK)
  {
    Error_Handler();
  }
  clock_init();
  pwm_input_init();

  if (HAL_TIM_IC_Start_IT(&htim2, TIM_CHANNEL_1) != HAL_OK)
  {
    Error_Handler();
  }
  if (HAL_TIM_IC_Start(&htim2, TIM_CHANNEL_2) != HAL_OK)
  {
    Error_Handler();
  }

  last = HAL_GetTick();
  for (;;)
  {
    if ((HAL_GetTick() - last) >= POLL_INTERVAL_MS)
    {
      last += POLL_INTERVAL_MS;
      pwm_input_get(&freq, &duty);
      pwm_freq_centihz  = freq;
      pwm_duty_permille = duty;
    }
  }
}
