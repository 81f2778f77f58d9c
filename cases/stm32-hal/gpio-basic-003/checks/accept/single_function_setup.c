#include "stm32f4xx_hal.h"

static volatile uint32_t presses;

int main(void)
{
	GPIO_InitTypeDef gpio = {0};

	HAL_Init();

	__HAL_RCC_GPIOC_CLK_ENABLE();
	gpio.Pin = GPIO_PIN_13;
	gpio.Mode = GPIO_MODE_IT_FALLING;
	gpio.Pull = GPIO_PULLUP;
	HAL_GPIO_Init(GPIOC, &gpio);

	__HAL_RCC_GPIOA_CLK_ENABLE();
	gpio.Pin = GPIO_PIN_5;
	gpio.Mode = GPIO_MODE_OUTPUT_PP;
	gpio.Pull = GPIO_NOPULL;
	gpio.Speed = GPIO_SPEED_FREQ_LOW;
	HAL_GPIO_Init(GPIOA, &gpio);
	HAL_GPIO_WritePin(GPIOA, GPIO_PIN_5, GPIO_PIN_RESET);

	HAL_NVIC_SetPriority(EXTI15_10_IRQn, 5, 0);
	HAL_NVIC_EnableIRQ(EXTI15_10_IRQn);

	while (1) {
		__WFI();
	}
}

void HAL_GPIO_EXTI_Callback(uint16_t pin)
{
	switch (pin) {
	case GPIO_PIN_13:
		presses++;
		HAL_GPIO_TogglePin(GPIOA, GPIO_PIN_5);
		break;
	default:
		break;
	}
}

void EXTI15_10_IRQHandler(void)
{
	HAL_GPIO_EXTI_IRQHandler(GPIO_PIN_13);
}

void SysTick_Handler(void)
{
	HAL_IncTick();
}
