#include "stm32f4xx_hal.h"

#define STALE_AFTER_MS 500u

typedef struct {
	uint32_t period;
	uint32_t high;
	uint32_t when_ms;
	uint32_t cycles;
} capture_t;

static TIM_HandleTypeDef tim_in;
static volatile capture_t latest;

volatile uint32_t pwm_freq_centihz;
volatile uint32_t pwm_duty_permille;

void Error_Handler(void);

static uint32_t capture_clock_hz(void)
{
	RCC_ClkInitTypeDef cfg;
	uint32_t latency;
	uint32_t pclk1 = HAL_RCC_GetPCLK1Freq();

	HAL_RCC_GetClockConfig(&cfg, &latency);
	return (cfg.APB1CLKDivider == RCC_HCLK_DIV1) ? pclk1 : 2u * pclk1;
}

void pwm_input_get(uint32_t *freq_centihz, uint32_t *duty_permille)
{
	capture_t snap;
	uint64_t scaled;

	HAL_NVIC_DisableIRQ(TIM2_IRQn);
	snap.period = latest.period;
	snap.high = latest.high;
	snap.when_ms = latest.when_ms;
	snap.cycles = latest.cycles;
	HAL_NVIC_EnableIRQ(TIM2_IRQn);

	*freq_centihz = 0u;
	*duty_permille = 0u;
	if (snap.cycles < 2u || HAL_GetTick() - snap.when_ms > STALE_AFTER_MS) {
		return;
	}
	if (snap.period == 0u) {
		return;
	}
	scaled = (uint64_t)capture_clock_hz() * 100u;
	*freq_centihz = (uint32_t)(scaled / snap.period);
	if (snap.high >= snap.period) {
		*duty_permille = 1000u;
	} else {
		*duty_permille = (snap.high * 1000u) / snap.period;
	}
}

void HAL_TIM_IC_CaptureCallback(TIM_HandleTypeDef *htim)
{
	if (htim->Channel != HAL_TIM_ACTIVE_CHANNEL_1) {
		return;
	}
	latest.period = HAL_TIM_ReadCapturedValue(htim, TIM_CHANNEL_1);
	latest.high = HAL_TIM_ReadCapturedValue(htim, TIM_CHANNEL_2);
	latest.when_ms = HAL_GetTick();
	if (latest.cycles < 2u) {
		latest.cycles++;
	}
}

void HAL_TIM_IC_MspInit(TIM_HandleTypeDef *htim)
{
	GPIO_InitTypeDef io = {0};

	if (htim->Instance == TIM2) {
		__HAL_RCC_GPIOA_CLK_ENABLE();
		__HAL_RCC_TIM2_CLK_ENABLE();
		io.Pin = GPIO_PIN_0;
		io.Mode = GPIO_MODE_AF_PP;
		io.Pull = GPIO_NOPULL;
		io.Speed = GPIO_SPEED_FREQ_LOW;
		io.Alternate = GPIO_AF1_TIM2;
		HAL_GPIO_Init(GPIOA, &io);
		HAL_NVIC_SetPriority(TIM2_IRQn, 0, 0);
		HAL_NVIC_EnableIRQ(TIM2_IRQn);
	}
}

void TIM2_IRQHandler(void)
{
	HAL_TIM_IRQHandler(&tim_in);
}

void SysTick_Handler(void)
{
	HAL_IncTick();
}

int main(void)
{
	RCC_ClkInitTypeDef bus = {0};
	TIM_IC_InitTypeDef chan = {0};
	TIM_SlaveConfigTypeDef sync = {0};
	uint32_t freq;
	uint32_t duty;

	HAL_Init();

	bus.ClockType = RCC_CLOCKTYPE_HCLK | RCC_CLOCKTYPE_SYSCLK | RCC_CLOCKTYPE_PCLK1 | RCC_CLOCKTYPE_PCLK2;
	bus.SYSCLKSource = RCC_SYSCLKSOURCE_HSI;
	bus.AHBCLKDivider = RCC_SYSCLK_DIV1;
	bus.APB1CLKDivider = RCC_HCLK_DIV4;
	bus.APB2CLKDivider = RCC_HCLK_DIV1;
	if (HAL_RCC_ClockConfig(&bus, FLASH_LATENCY_0) != HAL_OK) {
		Error_Handler();
	}

	tim_in.Instance = TIM2;
	tim_in.Init.Prescaler = 0;
	tim_in.Init.CounterMode = TIM_COUNTERMODE_UP;
	tim_in.Init.Period = 0xFFFFFFFF;
	tim_in.Init.ClockDivision = TIM_CLOCKDIVISION_DIV1;
	tim_in.Init.AutoReloadPreload = TIM_AUTORELOAD_PRELOAD_DISABLE;
	if (HAL_TIM_IC_Init(&tim_in) != HAL_OK) {
		Error_Handler();
	}

	sync.SlaveMode = TIM_SLAVEMODE_RESET;
	sync.InputTrigger = TIM_TS_TI1FP1;
	sync.TriggerFilter = 0;
	if (HAL_TIM_SlaveConfigSynchro(&tim_in, &sync) != HAL_OK) {
		Error_Handler();
	}

	chan.ICPrescaler = TIM_ICPSC_DIV1;
	chan.ICFilter = 0;
	chan.ICSelection = TIM_ICSELECTION_DIRECTTI;
	chan.ICPolarity = TIM_ICPOLARITY_RISING;
	if (HAL_TIM_IC_ConfigChannel(&tim_in, &chan, TIM_CHANNEL_1) != HAL_OK) {
		Error_Handler();
	}
	chan.ICSelection = TIM_ICSELECTION_INDIRECTTI;
	chan.ICPolarity = TIM_ICPOLARITY_FALLING;
	if (HAL_TIM_IC_ConfigChannel(&tim_in, &chan, TIM_CHANNEL_2) != HAL_OK) {
		Error_Handler();
	}

	if (HAL_TIM_IC_Start(&tim_in, TIM_CHANNEL_2) != HAL_OK || HAL_TIM_IC_Start_IT(&tim_in, TIM_CHANNEL_1) != HAL_OK) {
		Error_Handler();
	}

	while (1) {
		pwm_input_get(&freq, &duty);
		pwm_freq_centihz = freq;
		pwm_duty_permille = duty;
		HAL_Delay(100);
	}
}

void Error_Handler(void)
{
	__disable_irq();
	while (1) {
	}
}
