#include "stm32f4xx_hal.h"

UART_HandleTypeDef huart2;

static void usart2_init(void);
void Error_Handler(void);

int main(void)
{
	static const uint8_t greeting[] = "UART echo ready\r\n";
	uint8_t byte;

	HAL_Init();
	usart2_init();

	if (HAL_UART_Transmit(&huart2, greeting, sizeof(greeting) - 1, 100) != HAL_OK) {
		Error_Handler();
	}

	while (1) {
		HAL_StatusTypeDef status = HAL_UART_Receive(&huart2, &byte, 1, 1000);

		if (status == HAL_TIMEOUT) {
			continue;
		}
		if (status != HAL_OK) {
			Error_Handler();
		}
		if (HAL_UART_Transmit(&huart2, &byte, 1, 100) != HAL_OK) {
			Error_Handler();
		}
	}
}

static void usart2_init(void)
{
	huart2.Instance = USART2;
	huart2.Init.BaudRate = 115200;
	huart2.Init.WordLength = UART_WORDLENGTH_8B;
	huart2.Init.StopBits = UART_STOPBITS_1;
	huart2.Init.Parity = UART_PARITY_NONE;
	huart2.Init.Mode = UART_MODE_TX_RX;
	huart2.Init.HwFlowCtl = UART_HWCONTROL_NONE;
	huart2.Init.OverSampling = UART_OVERSAMPLING_16;

	if (HAL_UART_Init(&huart2) != HAL_OK) {
		Error_Handler();
	}
}

void HAL_UART_MspInit(UART_HandleTypeDef *huart)
{
	GPIO_InitTypeDef gpio = {0};

	if (huart->Instance != USART2) {
		return;
	}

	__HAL_RCC_USART2_CLK_ENABLE();
	__HAL_RCC_GPIOA_CLK_ENABLE();

	gpio.Pin = GPIO_PIN_2 | GPIO_PIN_3;
	gpio.Mode = GPIO_MODE_AF_PP;
	gpio.Pull = GPIO_PULLUP;
	gpio.Speed = GPIO_SPEED_FREQ_VERY_HIGH;
	gpio.Alternate = GPIO_AF7_USART2;
	HAL_GPIO_Init(GPIOA, &gpio);
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
