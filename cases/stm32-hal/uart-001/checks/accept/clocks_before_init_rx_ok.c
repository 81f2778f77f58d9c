#include "stm32f4xx_hal.h"
#include <string.h>

static UART_HandleTypeDef uart = {
	.Instance = USART2,
	.Init = {
		.BaudRate = 115200U,
		.WordLength = UART_WORDLENGTH_8B,
		.StopBits = UART_STOPBITS_1,
		.Parity = UART_PARITY_NONE,
		.Mode = UART_MODE_TX_RX,
		.HwFlowCtl = UART_HWCONTROL_NONE,
		.OverSampling = UART_OVERSAMPLING_16,
	},
};

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

static void uart_pins_init(void)
{
	GPIO_InitTypeDef pins = {0};

	pins.Pin = GPIO_PIN_2 | GPIO_PIN_3;
	pins.Mode = GPIO_MODE_AF_PP;
	pins.Pull = GPIO_NOPULL;
	pins.Speed = GPIO_SPEED_FREQ_HIGH;
	pins.Alternate = GPIO_AF7_USART2;
	HAL_GPIO_Init(GPIOA, &pins);
}

int main(void)
{
	const char *hello = "UART echo ready\r\n";
	uint8_t c;

	HAL_Init();

	__HAL_RCC_GPIOA_CLK_ENABLE();
	__HAL_RCC_USART2_CLK_ENABLE();
	uart_pins_init();

	if (HAL_UART_Init(&uart) != HAL_OK) {
		Error_Handler();
	}

	if (HAL_UART_Transmit(&uart, (const uint8_t *)hello, (uint16_t)strlen(hello), 50) != HAL_OK) {
		Error_Handler();
	}

	for (;;) {
		if (HAL_UART_Receive(&uart, &c, 1, 10) == HAL_OK) {
			if (HAL_UART_Transmit(&uart, &c, 1, 10) != HAL_OK) {
				Error_Handler();
			}
		}
	}
}
