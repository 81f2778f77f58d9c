/* NUCLEO-F401RE: greeting and byte echo on the ST-LINK VCP (USART2, PA2/PA3). */
#include "stm32f4xx_hal.h"

#define VCP_BAUD        115200U
#define VCP_TX_WAIT_MS  20U
#define VCP_RX_WAIT_MS  250U

UART_HandleTypeDef vcp;

void Error_Handler(void)
{
	__disable_irq();
	while (1U) {
	}
}

void SysTick_Handler(void)
{
	HAL_IncTick();
}

/* Called back from HAL_UART_Init(): clocks first, then the pin mux. */
void HAL_UART_MspInit(UART_HandleTypeDef *h)
{
	if (h->Instance == USART2) {
		GPIO_InitTypeDef af = {0};

		__HAL_RCC_GPIOA_CLK_ENABLE();
		__HAL_RCC_USART2_CLK_ENABLE();

		af.Pin = GPIO_PIN_3 | GPIO_PIN_2;
		af.Mode = GPIO_MODE_AF_PP;
		af.Pull = GPIO_NOPULL;
		af.Speed = GPIO_SPEED_FREQ_LOW;
		af.Alternate = GPIO_AF7_USART2;
		HAL_GPIO_Init(GPIOA, &af);
	}
}

static HAL_StatusTypeDef vcp_open(void)
{
	vcp.Instance = USART2;
	vcp.Init.BaudRate = VCP_BAUD;
	vcp.Init.WordLength = UART_WORDLENGTH_8B;
	vcp.Init.Parity = UART_PARITY_NONE;
	vcp.Init.StopBits = UART_STOPBITS_1;
	vcp.Init.HwFlowCtl = UART_HWCONTROL_NONE;
	vcp.Init.Mode = UART_MODE_TX_RX;
	vcp.Init.OverSampling = UART_OVERSAMPLING_8;
	return HAL_UART_Init(&vcp);
}

static void vcp_send(const uint8_t *data, uint16_t len)
{
	HAL_StatusTypeDef st = HAL_UART_Transmit(&vcp, data, len, VCP_TX_WAIT_MS);
	if (st != HAL_OK) {
		Error_Handler();
	}
}

int main(void)
{
	static const char banner[] = { 'U', 'A', 'R', 'T', ' ', 'e', 'c', 'h', 'o', ' ',
	                               'r', 'e', 'a', 'd', 'y', '\r', '\n' };
	uint8_t rx;

	if (HAL_Init() != HAL_OK) {
		Error_Handler();
	}
	if (vcp_open() != HAL_OK) {
		Error_Handler();
	}

	vcp_send((const uint8_t *)banner, (uint16_t)sizeof banner);

	for (;;) {
		switch (HAL_UART_Receive(&vcp, &rx, 1U, VCP_RX_WAIT_MS)) {
		case HAL_OK:
			vcp_send(&rx, 1U);
			break;
		case HAL_TIMEOUT:
			/* the PC is silent: poll again */
			break;
		default:
			Error_Handler();
			break;
		}
	}
}
