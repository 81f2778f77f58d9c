#include "stm32f4xx_hal.h"

#define LED_PORT    GPIOA
#define LED_PIN     GPIO_PIN_5
#define BUTTON_PORT GPIOC
#define BUTTON_PIN  GPIO_PIN_13

void SysTick_Handler(void)
{
	HAL_IncTick();
}

void EXTI15_10_IRQHandler(void)
{
	HAL_GPIO_EXTI_IRQHandler(BUTTON_PIN);
}

void HAL_GPIO_EXTI_Callback(uint16_t GPIO_Pin)
{
	if (GPIO_Pin == BUTTON_PIN) {
		HAL_GPIO_TogglePin(LED_PORT, LED_PIN);
	}
}

static void gpio_init(void)
{
	GPIO_InitTypeDef init = {0};

	__HAL_RCC_GPIOA_CLK_ENABLE();
	__HAL_RCC_GPIOC_CLK_ENABLE();

	HAL_GPIO_WritePin(LED_PORT, LED_PIN, GPIO_PIN_RESET);
	init.Pin = LED_PIN;
	init.Mode = GPIO_MODE_OUTPUT_PP;
	init.Pull = GPIO_NOPULL;
	init.Speed = GPIO_SPEED_FREQ_LOW;
	HAL_GPIO_Init(LED_PORT, &init);

	init.Pin = BUTTON_PIN;
	init.Mode = GPIO_MODE_IT_FALLING;
	init.Pull = GPIO_NOPULL;
	HAL_GPIO_Init(BUTTON_PORT, &init);

	HAL_NVIC_SetPriority(EXTI15_10_IRQn, 2, 0);
	HAL_NVIC_EnableIRQ(EXTI15_10_IRQn);
}

int main(void)
{
	HAL_Init();
	gpio_init();

	for (;;) {
		__WFI();
	}
}
