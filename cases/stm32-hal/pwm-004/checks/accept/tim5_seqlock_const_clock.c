#include <stdint.h>
#include "stm32f4xx_hal.h"

/* APB1 = 16 MHz / 4 = 4 MHz; with an APB1 prescaler other than 1 the APB1
 * timers are clocked at twice PCLK1. */
#define PCLK1_HZ        (16000000UL / 4UL)
#define TIMER_CLOCK_HZ  (2UL * PCLK1_HZ)
#define NO_SIGNAL_MS    500UL

TIM_HandleTypeDef htim5;

volatile uint32_t pwm_freq_centihz;
volatile uint32_t pwm_duty_permille;

static volatile uint32_t edge_seq;
static volatile uint32_t last_period;
static volatile uint32_t last_high;

static uint32_t seen_seq;
static uint32_t seen_at_ms;
static uint32_t cycles_seen;

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

void TIM5_IRQHandler(void)
{
	HAL_TIM_IRQHandler(&htim5);
}

void HAL_TIM_IC_CaptureCallback(TIM_HandleTypeDef *htim)
{
	if (htim->Instance != TIM5) {
		return;
	}
	switch (htim->Channel) {
	case HAL_TIM_ACTIVE_CHANNEL_1:
		edge_seq++;
		last_period = __HAL_TIM_GET_COMPARE(htim, TIM_CHANNEL_1);
		last_high = __HAL_TIM_GET_COMPARE(htim, TIM_CHANNEL_2);
		edge_seq++;
		break;
	default:
		break;
	}
}

static void clocks_init(void)
{
	RCC_ClkInitTypeDef buses = {
		.ClockType = RCC_CLOCKTYPE_SYSCLK | RCC_CLOCKTYPE_HCLK | RCC_CLOCKTYPE_PCLK1 | RCC_CLOCKTYPE_PCLK2,
		.SYSCLKSource = RCC_SYSCLKSOURCE_HSI,
		.AHBCLKDivider = RCC_SYSCLK_DIV1,
		.APB1CLKDivider = RCC_HCLK_DIV4,
		.APB2CLKDivider = RCC_HCLK_DIV1,
	};

	if (HAL_RCC_ClockConfig(&buses, FLASH_LATENCY_0) != HAL_OK) {
		Error_Handler();
	}
}

static void capture_init(void)
{
	GPIO_InitTypeDef pin = {0};
	const TIM_IC_InitTypeDef rising = {
		.ICPolarity = TIM_ICPOLARITY_RISING,
		.ICSelection = TIM_ICSELECTION_DIRECTTI,
		.ICPrescaler = TIM_ICPSC_DIV1,
		.ICFilter = 0,
	};
	const TIM_IC_InitTypeDef falling = {
		.ICPolarity = TIM_ICPOLARITY_FALLING,
		.ICSelection = TIM_ICSELECTION_INDIRECTTI,
		.ICPrescaler = TIM_ICPSC_DIV1,
		.ICFilter = 0,
	};
	TIM_SlaveConfigTypeDef reset_on_edge = {
		.SlaveMode = TIM_SLAVEMODE_RESET,
		.InputTrigger = TIM_TS_TI1FP1,
		.TriggerPolarity = TIM_TRIGGERPOLARITY_NONINVERTED,
		.TriggerPrescaler = TIM_TRIGGERPRESCALER_DIV1,
		.TriggerFilter = 0,
	};

	__HAL_RCC_GPIOA_CLK_ENABLE();
	__HAL_RCC_TIM5_CLK_ENABLE();

	pin.Pin = GPIO_PIN_0;
	pin.Mode = GPIO_MODE_AF_PP;
	pin.Pull = GPIO_PULLDOWN;
	pin.Speed = GPIO_SPEED_FREQ_LOW;
	pin.Alternate = GPIO_AF2_TIM5;
	HAL_GPIO_Init(GPIOA, &pin);

	htim5.Instance = TIM5;
	htim5.Init.Prescaler = 0U;
	htim5.Init.CounterMode = TIM_COUNTERMODE_UP;
	htim5.Init.Period = UINT32_MAX;
	htim5.Init.ClockDivision = TIM_CLOCKDIVISION_DIV1;
	htim5.Init.AutoReloadPreload = TIM_AUTORELOAD_PRELOAD_DISABLE;
	if (HAL_TIM_IC_Init(&htim5) != HAL_OK) {
		Error_Handler();
	}
	if (HAL_TIM_IC_ConfigChannel(&htim5, &rising, TIM_CHANNEL_1) != HAL_OK) {
		Error_Handler();
	}
	if (HAL_TIM_IC_ConfigChannel(&htim5, &falling, TIM_CHANNEL_2) != HAL_OK) {
		Error_Handler();
	}
	if (HAL_TIM_SlaveConfigSynchro(&htim5, &reset_on_edge) != HAL_OK) {
		Error_Handler();
	}

	HAL_NVIC_SetPriority(TIM5_IRQn, 2, 0);
	HAL_NVIC_EnableIRQ(TIM5_IRQn);

	if (HAL_TIM_IC_Start_IT(&htim5, TIM_CHANNEL_2) != HAL_OK) {
		Error_Handler();
	}
	if (HAL_TIM_IC_Start_IT(&htim5, TIM_CHANNEL_1) != HAL_OK) {
		Error_Handler();
	}
}

void pwm_input_get(uint32_t *freq_centihz, uint32_t *duty_permille)
{
	uint32_t seq;
	uint32_t period;
	uint32_t high;
	uint32_t now = HAL_GetTick();

	do {
		seq = edge_seq;
		period = last_period;
		high = last_high;
	} while ((seq & 1U) != 0U || seq != edge_seq);

	if (seq != seen_seq) {
		seen_seq = seq;
		seen_at_ms = now;
		if (cycles_seen < 2U) {
			cycles_seen++;
		}
	}

	*freq_centihz = 0U;
	*duty_permille = 0U;
	if (cycles_seen < 2U || now - seen_at_ms >= NO_SIGNAL_MS) {
		return;
	}
	*freq_centihz = (period != 0U) ? (uint32_t)(((uint64_t)TIMER_CLOCK_HZ * 100U) / period) : 0U;
	*duty_permille = (period != 0U) ? (uint32_t)(((uint64_t)(high < period ? high : period) * 1000U) / period) : 0U;
}

int main(void)
{
	uint32_t f;
	uint32_t d;

	HAL_Init();
	clocks_init();
	capture_init();

	for (;;) {
		pwm_input_get(&f, &d);
		pwm_freq_centihz = f;
		pwm_duty_permille = d;
		HAL_Delay(100U);
	}
}
