#include <string.h>
#include "stm32f4xx_hal.h"

UART_HandleTypeDef huart2;
DMA_HandleTypeDef hdma_tx;

static char line[32];
static volatile int done = 1;

void Error_Handler(void)
{
	while (1) {
	}
}

static size_t fmt(char *out, unsigned long n)
{
	char tmp[12];
	size_t i = 0, k = 0;

	memcpy(out, "uptime ", 7);
	k = 7;
	do {
		tmp[i++] = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	while (i) {
		out[k++] = tmp[--i];
	}
	memcpy(&out[k], " s\r\n", 4);
	return k + 4;
}

void HAL_UART_MspInit(UART_HandleTypeDef *h)
{
	GPIO_InitTypeDef g = {0};

	__HAL_RCC_GPIOA_CLK_ENABLE();
	__HAL_RCC_USART2_CLK_ENABLE();
	__HAL_RCC_DMA1_CLK_ENABLE();
	g.Pin = GPIO_PIN_2 | GPIO_PIN_3;
	g.Mode = GPIO_MODE_AF_PP;
	g.Alternate = GPIO_AF7_USART2;
	HAL_GPIO_Init(GPIOA, &g);

	hdma_tx.Instance = DMA1_Stream6;
	hdma_tx.Init.Channel = DMA_CHANNEL_4;
	hdma_tx.Init.Direction = DMA_MEMORY_TO_PERIPH;
	hdma_tx.Init.MemInc = DMA_MINC_ENABLE;
	hdma_tx.Init.Mode = DMA_NORMAL;
	if (HAL_DMA_Init(&hdma_tx) != HAL_OK) {
		Error_Handler();
	}
	__HAL_LINKDMA(h, hdmatx, hdma_tx);
	HAL_NVIC_SetPriority(DMA1_Stream6_IRQn, 1, 0);
	HAL_NVIC_EnableIRQ(DMA1_Stream6_IRQn);
	HAL_NVIC_SetPriority(USART2_IRQn, 1, 0);
	HAL_NVIC_EnableIRQ(USART2_IRQn);
}

void DMA1_Stream6_IRQHandler(void) { HAL_DMA_IRQHandler(&hdma_tx); }
void USART2_IRQHandler(void) { HAL_UART_IRQHandler(&huart2); }
void SysTick_Handler(void) { HAL_IncTick(); }

void HAL_UART_TxCpltCallback(UART_HandleTypeDef *h)
{
	(void)h;
	done = 1;
}

int main(void)
{
	unsigned long n = 0;
	uint32_t next = 0;

	HAL_Init();
	huart2.Instance = USART2;
	huart2.Init.BaudRate = 115200;
	huart2.Init.WordLength = UART_WORDLENGTH_8B;
	huart2.Init.StopBits = UART_STOPBITS_1;
	huart2.Init.Parity = UART_PARITY_NONE;
	huart2.Init.Mode = UART_MODE_TX;
	huart2.Init.HwFlowCtl = UART_HWCONTROL_NONE;
	huart2.Init.OverSampling = UART_OVERSAMPLING_16;
	if (HAL_UART_Init(&huart2) != HAL_OK) {
		Error_Handler();
	}

	for (;;) {
		if ((int32_t)(HAL_GetTick() - next) >= 0) {
			next += 1000;
			if (done) {
				done = 0;
				if (HAL_UART_Transmit_DMA(&huart2, (uint8_t *)line, (uint16_t)fmt(line, n)) != HAL_OK) {
					Error_Handler();
				}
			}
			n++;
		}
	}
}
