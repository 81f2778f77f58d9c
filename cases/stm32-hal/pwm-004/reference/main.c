#include "stm32f4xx_hal.h"

#define SIGNAL_TIMEOUT_MS 500U
#define SAMPLE_INTERVAL_MS 100U

TIM_HandleTypeDef htim2;

volatile uint32_t pwm_freq_centihz;
volatile uint32_t pwm_duty_permille;

static volatile uint32_t cap_period_ticks;
static volatile uint32_t cap_high_ticks;
static volatile uint32_t cap_time_ms;
static volatile uint32_t cap_count;

static void SystemClock_Config(void);
static void pwm_input_init(void);
void pwm_input_get(uint32_t *freq_centihz, uint32_t *duty_permille);
void Error_Handler(void);

int main(void)
{
	uint32_t freq;
	uint32_t duty;

	HAL_Init();
	SystemClock_Config();
	pwm_input_init();

	while (1) {
		pwm_input_get(&freq, &duty);
		pwm_freq_centihz = freq;
		pwm_duty_permille = duty;
		HAL_Delay(SAMPLE_INTERVAL_MS);
	}
}

static void SystemClock_Config(void)
{
	RCC_ClkInitTypeDef clk = {0};

	clk.ClockType = RCC_CLOCKTYPE_SYSCLK | RCC_CLOCKTYPE_HCLK | RCC_CLOCKTYPE_PCLK1 | RCC_CLOCKTYPE_PCLK2;
	clk.SYSCLKSource = RCC_SYSCLKSOURCE_HSI;
	clk.AHBCLKDivider = RCC_SYSCLK_DIV1;
	clk.APB1CLKDivider = RCC_HCLK_DIV4;
	clk.APB2CLKDivider = RCC_HCLK_DIV1;
	if (HAL_RCC_ClockConfig(&clk, FLASH_LATENCY_0) != HAL_OK) {
		Error_Handler();
	}
}

static void pwm_input_init(void)
{
	TIM_IC_InitTypeDef ic = {0};
	TIM_SlaveConfigTypeDef slave = {0};

	htim2.Instance = TIM2;
	htim2.Init.Prescaler = 0;
	htim2.Init.CounterMode = TIM_COUNTERMODE_UP;
	htim2.Init.Period = 0xFFFFFFFFU;
	htim2.Init.ClockDivision = TIM_CLOCKDIVISION_DIV1;
	htim2.Init.AutoReloadPreload = TIM_AUTORELOAD_PRELOAD_DISABLE;
	if (HAL_TIM_IC_Init(&htim2) != HAL_OK) {
		Error_Handler();
	}

	ic.ICPolarity = TIM_ICPOLARITY_RISING;
	ic.ICSelection = TIM_ICSELECTION_DIRECTTI;
	ic.ICPrescaler = TIM_ICPSC_DIV1;
	ic.ICFilter = 0;
	if (HAL_TIM_IC_ConfigChannel(&htim2, &ic, TIM_CHANNEL_1) != HAL_OK) {
		Error_Handler();
	}

	ic.ICPolarity = TIM_ICPOLARITY_FALLING;
	ic.ICSelection = TIM_ICSELECTION_INDIRECTTI;
	if (HAL_TIM_IC_ConfigChannel(&htim2, &ic, TIM_CHANNEL_2) != HAL_OK) {
		Error_Handler();
	}

	slave.SlaveMode = TIM_SLAVEMODE_RESET;
	slave.InputTrigger = TIM_TS_TI1FP1;
	slave.TriggerPolarity = TIM_TRIGGERPOLARITY_RISING;
	slave.TriggerPrescaler = TIM_TRIGGERPRESCALER_DIV1;
	slave.TriggerFilter = 0;
	if (HAL_TIM_SlaveConfigSynchro(&htim2, &slave) != HAL_OK) {
		Error_Handler();
	}

	if (HAL_TIM_IC_Start(&htim2, TIM_CHANNEL_2) != HAL_OK) {
		Error_Handler();
	}
	if (HAL_TIM_IC_Start_IT(&htim2, TIM_CHANNEL_1) != HAL_OK) {
		Error_Handler();
	}
}

void HAL_TIM_IC_MspInit(TIM_HandleTypeDef *htim)
{
	GPIO_InitTypeDef gpio = {0};

	if (htim->Instance != TIM2) {
		return;
	}

	__HAL_RCC_TIM2_CLK_ENABLE();
	__HAL_RCC_GPIOA_CLK_ENABLE();

	gpio.Pin = GPIO_PIN_0;
	gpio.Mode = GPIO_MODE_AF_PP;
	gpio.Pull = GPIO_NOPULL;
	gpio.Speed = GPIO_SPEED_FREQ_LOW;
	gpio.Alternate = GPIO_AF1_TIM2;
	HAL_GPIO_Init(GPIOA, &gpio);

	HAL_NVIC_SetPriority(TIM2_IRQn, 1, 0);
	HAL_NVIC_EnableIRQ(TIM2_IRQn);
}

void TIM2_IRQHandler(void)
{
	HAL_TIM_IRQHandler(&htim2);
}

void HAL_TIM_IC_CaptureCallback(TIM_HandleTypeDef *htim)
{
	if (htim->Instance == TIM2 && htim->Channel == HAL_TIM_ACTIVE_CHANNEL_1) {
		cap_period_ticks = HAL_TIM_ReadCapturedValue(htim, TIM_CHANNEL_1);
		cap_high_ticks = HAL_TIM_ReadCapturedValue(htim, TIM_CHANNEL_2);
		cap_time_ms = HAL_GetTick();
		cap_count++;
	}
}

static uint32_t tim2_clock_hz(void)
{
	uint32_t hz = HAL_RCC_GetPCLK1Freq();

	if ((RCC->CFGR & RCC_CFGR_PPRE1) != RCC_CFGR_PPRE1_DIV1) {
		hz *= 2U;
	}
	return hz;
}

void pwm_input_get(uint32_t *freq_centihz, uint32_t *duty_permille)
{
	uint32_t period;
	uint32_t high;
	uint32_t stamp;
	uint32_t count;
	uint32_t primask;

	primask = __get_PRIMASK();
	__disable_irq();
	period = cap_period_ticks;
	high = cap_high_ticks;
	stamp = cap_time_ms;
	count = cap_count;
	__set_PRIMASK(primask);

	if (count < 2U || period == 0U || (HAL_GetTick() - stamp) > SIGNAL_TIMEOUT_MS) {
		*freq_centihz = 0;
		*duty_permille = 0;
		return;
	}
	if (high > period) {
		high = period;
	}

	*freq_centihz = (uint32_t)(((uint64_t)tim2_clock_hz() * 100U) / period);
	*duty_permille = (uint32_t)(((uint64_t)high * 1000U) / period);
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
