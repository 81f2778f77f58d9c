/* defect: The frequency is computed from PCLK1 (4 MHz) instead of the APB1 timer clock (2 x PCLK1 = 8 MHz because the APB1 prescaler is 4), so every reported frequency is half the real one.
 * breaks: "Provide `void pwm_input_get(uint32_t *freq_centihz, uint32_t *duty_permille)`, which returns the latest measurement: the frequency in units of 0.01 Hz and the duty cycle (high time divided by period) in units of 0.1 %, computed with integer arithmetic only (no floating point)."
 * must_fail: timer_clock_accounts_for_apb1_doubling
 */
/*
 * main.c - NUCLEO-F401RE: measure frequency and duty cycle of an external
 * PWM signal on PA0 with TIM2 in PWM-input mode (STM32CubeF4 HAL).
 *
 * Clock tree: HSI 16 MHz -> SYSCLK = HCLK = 16 MHz, APB1 /4 (PCLK1 = 4 MHz),
 * APB2 /1, flash latency 0.
 *
 * TIM2 (32-bit) counts with prescaler 0 straight from the APB1 bus clock; a
 * 100 ms period stays far below the 32-bit wrap.
 *
 * PWM input mode:
 *   IC1 <- TI1 (direct),   rising edge : CCR1 = period     (rise -> rise)
 *   IC2 <- TI1 (indirect), falling edge: CCR2 = high time  (rise -> fall)
 *   slave mode RESET, trigger TI1FP1   : counter cleared on every rising edge
 */
#include "stm32f4xx_hal.h"

#define SIGNAL_TIMEOUT_MS   500U
#define SAMPLE_PERIOD_MS    100U

TIM_HandleTypeDef htim2;

/* Watched by the debugger. */
volatile uint32_t pwm_freq_centihz;
volatile uint32_t pwm_duty_permille;

/* Raw capture state shared between the TIM2 interrupt and thread mode. */
static volatile uint32_t cap_period_ticks;  /* CCR1 of the last complete cycle   */
static volatile uint32_t cap_high_ticks;    /* CCR2 of the same cycle             */
static volatile uint32_t cap_tick_ms;       /* HAL tick of that capture           */
static volatile uint8_t  cap_valid;         /* at least one complete cycle seen   */

/* Interrupt-private edge bookkeeping. */
static uint32_t last_edge_ms;
static uint8_t  edge_seen;

void Error_Handler(void);
void pwm_input_get(uint32_t *freq_centihz, uint32_t *duty_permille);
static void SystemClock_Config(void);
static void MX_TIM2_Init(void);

/* ------------------------------------------------------------------------ */
/* Interrupt handlers (main.c is the only application source file).         */
/* ------------------------------------------------------------------------ */
void SysTick_Handler(void)
{
  HAL_IncTick();
}

void TIM2_IRQHandler(void)
{
  HAL_TIM_IRQHandler(&htim2);
}

/* ------------------------------------------------------------------------ */
/* Clock tree                                                                */
/* ------------------------------------------------------------------------ */
static void SystemClock_Config(void)
{
  RCC_OscInitTypeDef osc = {0};
  RCC_ClkInitTypeDef clk = {0};

  __HAL_RCC_PWR_CLK_ENABLE();
  __HAL_PWR_VOLTAGESCALING_CONFIG(PWR_REGULATOR_VOLTAGE_SCALE2);

  osc.OscillatorType      = RCC_OSCILLATORTYPE_HSI;
  osc.HSIState            = RCC_HSI_ON;
  osc.HSICalibrationValue = RCC_HSICALIBRATION_DEFAULT;
  osc.PLL.PLLState        = RCC_PLL_NONE;
  if (HAL_RCC_OscConfig(&osc) != HAL_OK)
  {
    Error_Handler();
  }

  clk.ClockType      = RCC_CLOCKTYPE_SYSCLK | RCC_CLOCKTYPE_HCLK |
                       RCC_CLOCKTYPE_PCLK1  | RCC_CLOCKTYPE_PCLK2;
  clk.SYSCLKSource   = RCC_SYSCLKSOURCE_HSI;
  clk.AHBCLKDivider  = RCC_SYSCLK_DIV1;
  clk.APB1CLKDivider = RCC_HCLK_DIV4;
  clk.APB2CLKDivider = RCC_HCLK_DIV1;
  if (HAL_RCC_ClockConfig(&clk, FLASH_LATENCY_0) != HAL_OK)
  {
    Error_Handler();
  }
}

/* Counting clock of TIM2 (APB1 peripheral, prescaler 0). */
static uint32_t tim2_clock_hz(void)
{
  return HAL_RCC_GetPCLK1Freq();
}

/* ------------------------------------------------------------------------ */
/* TIM2 PWM input                                                            */
/* ------------------------------------------------------------------------ */
void HAL_TIM_IC_MspInit(TIM_HandleTypeDef *htim)
{
  GPIO_InitTypeDef gpio = {0};

  if (htim->Instance == TIM2)
  {
    __HAL_RCC_TIM2_CLK_ENABLE();
    __HAL_RCC_GPIOA_CLK_ENABLE();

    /* PA0 -> TIM2_CH1 (AF1) */
    gpio.Pin       = GPIO_PIN_0;
    gpio.Mode      = GPIO_MODE_AF_PP;
    gpio.Pull      = GPIO_NOPULL;
    gpio.Speed     = GPIO_SPEED_FREQ_LOW;
    gpio.Alternate = GPIO_AF1_TIM2;
    HAL_GPIO_Init(GPIOA, &gpio);

    HAL_NVIC_SetPriority(TIM2_IRQn, 1U, 0U);
    HAL_NVIC_EnableIRQ(TIM2_IRQn);
  }
}

static void MX_TIM2_Init(void)
{
  TIM_IC_InitTypeDef    ic    = {0};
  TIM_SlaveConfigTypeDef slave = {0};

  htim2.Instance               = TIM2;
  htim2.Init.Prescaler         = 0U;            /* no prescaling         */
  htim2.Init.CounterMode       = TIM_COUNTERMODE_UP;
  htim2.Init.Period            = 0xFFFFFFFFU;   /* full 32-bit range     */
  htim2.Init.ClockDivision     = TIM_CLOCKDIVISION_DIV1;
  htim2.Init.AutoReloadPreload = TIM_AUTORELOAD_PRELOAD_DISABLE;
  if (HAL_TIM_IC_Init(&htim2) != HAL_OK)
  {
    Error_Handler();
  }

  /* Channel 1: TI1 rising edge -> period */
  ic.ICPolarity  = TIM_INPUTCHANNELPOLARITY_RISING;
  ic.ICSelection = TIM_ICSELECTION_DIRECTTI;
  ic.ICPrescaler = TIM_ICPSC_DIV1;
  ic.ICFilter    = 0U;
  if (HAL_TIM_IC_ConfigChannel(&htim2, &ic, TIM_CHANNEL_1) != HAL_OK)
  {
    Error_Handler();
  }

  /* Channel 2: TI1 falling edge -> high time */
  ic.ICPolarity  = TIM_INPUTCHANNELPOLARITY_FALLING;
  ic.ICSelection = TIM_ICSELECTION_INDIRECTTI;
  if (HAL_TIM_IC_ConfigChannel(&htim2, &ic, TIM_CHANNEL_2) != HAL_OK)
  {
    Error_Handler();
  }

  /* Counter reset on every rising edge of TI1 */
  slave.SlaveMode        = TIM_SLAVEMODE_RESET;
  slave.InputTrigger     = TIM_TS_TI1FP1;
  slave.TriggerPolarity  = TIM_TRIGGERPOLARITY_RISING;
  slave.TriggerPrescaler = TIM_TRIGGERPRESCALER_DIV1;
  slave.TriggerFilter    = 0U;
  if (HAL_TIM_SlaveConfigSynchro(&htim2, &slave) != HAL_OK)
  {
    Error_Handler();
  }
}

/*
 * Runs in TIM2 interrupt context: only latch the raw captures.
 * CC1 fires on the rising edge that ends a cycle; at that moment CCR1 holds
 * that cycle's period and CCR2 the falling edge of the same cycle.
 */
void HAL_TIM_IC_CaptureCallback(TIM_HandleTypeDef *htim)
{
  if ((htim->Instance == TIM2) && (htim->Channel == HAL_TIM_ACTIVE_CHANNEL_1))
  {
    uint32_t high   = HAL_TIM_ReadCapturedValue(htim, TIM_CHANNEL_2);
    uint32_t period = HAL_TIM_ReadCapturedValue(htim, TIM_CHANNEL_1);
    uint32_t now    = HAL_GetTick();

    /*
     * The first rising edge after start-up (or after the signal was gone for
     * longer than the timeout) ends no complete cycle: the counter ran from an
     * arbitrary point, so only use it as the reference edge.
     */
    if ((edge_seen != 0U) && ((now - last_edge_ms) <= SIGNAL_TIMEOUT_MS))
    {
      cap_period_ticks = period;
      cap_high_ticks   = high;
      cap_tick_ms      = now;
      cap_valid        = 1U;
    }
    edge_seen    = 1U;
    last_edge_ms = now;
  }
}

void pwm_input_get(uint32_t *freq_centihz, uint32_t *duty_permille)
{
  uint32_t period;
  uint32_t high;
  uint32_t stamp;
  uint8_t  valid;
  uint32_t primask;

  /* Consistent snapshot of the values written by the interrupt. */
  primask = __get_PRIMASK();
  __disable_irq();
  period = cap_period_ticks;
  high   = cap_high_ticks;
  stamp  = cap_tick_ms;
  valid  = cap_valid;
  __set_PRIMASK(primask);

  if ((valid == 0U) || (period == 0U) ||
      ((HAL_GetTick() - stamp) > SIGNAL_TIMEOUT_MS))
  {
    *freq_centihz  = 0U;
    *duty_permille = 0U;
    return;
  }

  if (high > period)
  {
    high = period;
  }

  /* f[0.01 Hz] = f_tim * 100 / period ; duty[0.1 %] = high * 1000 / period */
  *freq_centihz  = (uint32_t)((((uint64_t)tim2_clock_hz() * 100U) + (period / 2U)) / period);
  *duty_permille = (uint32_t)((((uint64_t)high * 1000U) + (period / 2U)) / period);
}

int main(void)
{
  uint32_t next;

  if (HAL_Init() != HAL_OK)
  {
    Error_Handler();
  }
  SystemClock_Config();
  MX_TIM2_Init();

  if (HAL_TIM_IC_Start(&htim2, TIM_CHANNEL_2) != HAL_OK)
  {
    Error_Handler();
  }
  if (HAL_TIM_IC_Start_IT(&htim2, TIM_CHANNEL_1) != HAL_OK)
  {
    Error_Handler();
  }

  next = HAL_GetTick();
  while (1)
  {
    uint32_t f;
    uint32_t d;

    next += SAMPLE_PERIOD_MS;
    while ((int32_t)(HAL_GetTick() - next) < 0)
    {
      __WFI();
    }

    pwm_input_get(&f, &d);
    pwm_freq_centihz  = f;
    pwm_duty_permille = d;
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
