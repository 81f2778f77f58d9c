#include "stm32f4xx_hal.h"

#define TIM2_CLOCK_HZ  16000000U
#define TICK_HZ        1000000U
#define PWM_HZ         1000U
#define PWM_TICKS      (TICK_HZ / PWM_HZ)

TIM_HandleTypeDef htim2;

static void tim2_pwm_init(void);
void led_set_pulse(uint32_t high_us);
void Error_Handler(void);

int main(void)
{
	uint32_t high_us = 0;

	HAL_Init();
	tim2_pwm_init();
	led_set_pulse(PWM_TICKS / 4);

	if (HAL_TIM_PWM_Start(&htim2, TIM_CHANNEL_1) != HAL_OK) {
		Error_Handler();
	}

	while (1) {
		HAL_Delay(5);
		high_us = (high_us >= PWM_TICKS) ? 0 : high_us + 10;
		led_set_pulse(high_us);
	}
}

static void tim2_pwm_init(void)
{
	TIM_OC_InitTypeDef oc = {0};

	htim2.Instance = TIM2;
	htim2.Init.Prescaler = (TIM2_CLOCK_HZ / TICK_HZ) - 1;
	htim2.Init.CounterMode = TIM_COUNTERMODE_UP;
	htim2.Init.Period = PWM_TICKS - 1;
	htim2.Init.ClockDivision = TIM_CLOCKDIVISION_DIV1;
	htim2.Init.AutoReloadPreload = TIM_AUTORELOAD_PRELOAD_ENABLE;

	if (HAL_TIM_PWM_Init(&htim2) != HAL_OK) {
		Error_Handler();
	}

	oc.OCMode = TIM_OCMODE_PWM1;
	oc.Pulse = 0;
	oc.OCPolarity = TIM_OCPOLARITY_HIGH;
	oc.OCFastMode = TIM_OCFAST_DISABLE;
	if (HAL_TIM_PWM_ConfigChannel(&htim2, &oc, TIM_CHANNEL_1) != HAL_OK) {
		Error_Handler();
	}
}

void HAL_TIM_PWM_MspInit(TIM_HandleTypeDef *htim)
{
	GPIO_InitTypeDef gpio = {0};

	if (htim->Instance != TIM2) {
		return;
	}

	__HAL_RCC_TIM2_CLK_ENABLE();
	__HAL_RCC_GPIOA_CLK_ENABLE();

	gpio.Pin = GPIO_PIN_5;
	gpio.Mode = GPIO_MODE_AF_PP;
	gpio.Pull = GPIO_NOPULL;
	gpio.Speed = GPIO_SPEED_FREQ_LOW;
	gpio.Alternate = GPIO_AF1_TIM2;
	HAL_GPIO_Init(GPIOA, &gpio);
}

void led_set_pulse(uint32_t high_us)
{
	if (high_us > PWM_TICKS) {
		high_us = PWM_TICKS;
	}
	__HAL_TIM_SET_COMPARE(&htim2, TIM_CHANNEL_1, high_us);
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
