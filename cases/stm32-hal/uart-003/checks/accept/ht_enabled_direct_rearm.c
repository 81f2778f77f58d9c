#include <stdint.h>

#include "stm32f4xx_hal.h"

#define DMA_RX_SIZE 64U
#define APP_RING_SIZE 256U

UART_HandleTypeDef huart2;
DMA_HandleTypeDef hdma_usart2_rx;

static uint8_t dma_rx_buf[DMA_RX_SIZE];
static uint16_t dma_last_pos;

static uint8_t app_ring[APP_RING_SIZE];
static volatile uint16_t ring_head;
static volatile uint16_t ring_tail;
static volatile uint32_t ring_dropped;

static void usart2_init(void);
static void rx_start(void);
void Error_Handler(void);

static void ring_put(const uint8_t *data, uint16_t len)
{
	uint16_t head = ring_head;

	for (uint16_t i = 0; i < len; i++) {
		uint16_t next = (uint16_t)((head + 1U) % APP_RING_SIZE);

		if (next == ring_tail) {
			ring_dropped++;
			continue;
		}
		app_ring[head] = data[i];
		head = next;
	}
	ring_head = head;
}

static int ring_get(uint8_t *out)
{
	uint16_t tail = ring_tail;

	if (tail == ring_head) {
		return 0;
	}
	*out = app_ring[tail];
	ring_tail = (uint16_t)((tail + 1U) % APP_RING_SIZE);
	return 1;
}

int main(void)
{
	uint8_t byte;

	HAL_Init();
	usart2_init();
	rx_start();

	while (1) {
		while (ring_get(&byte)) {
			if (HAL_UART_Transmit(&huart2, &byte, 1, 10) != HAL_OK) {
				break;
			}
		}
	}
}

static void rx_start(void)
{
	if (HAL_UARTEx_ReceiveToIdle_DMA(&huart2, dma_rx_buf, DMA_RX_SIZE) != HAL_OK) {
		Error_Handler();
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
	__HAL_RCC_DMA1_CLK_ENABLE();

	gpio.Pin = GPIO_PIN_2 | GPIO_PIN_3;
	gpio.Mode = GPIO_MODE_AF_PP;
	gpio.Pull = GPIO_PULLUP;
	gpio.Speed = GPIO_SPEED_FREQ_VERY_HIGH;
	gpio.Alternate = GPIO_AF7_USART2;
	HAL_GPIO_Init(GPIOA, &gpio);

	hdma_usart2_rx.Instance = DMA1_Stream5;
	hdma_usart2_rx.Init.Channel = DMA_CHANNEL_4;
	hdma_usart2_rx.Init.Direction = DMA_PERIPH_TO_MEMORY;
	hdma_usart2_rx.Init.PeriphInc = DMA_PINC_DISABLE;
	hdma_usart2_rx.Init.MemInc = DMA_MINC_ENABLE;
	hdma_usart2_rx.Init.PeriphDataAlignment = DMA_PDATAALIGN_BYTE;
	hdma_usart2_rx.Init.MemDataAlignment = DMA_MDATAALIGN_BYTE;
	hdma_usart2_rx.Init.Mode = DMA_CIRCULAR;
	hdma_usart2_rx.Init.Priority = DMA_PRIORITY_HIGH;
	hdma_usart2_rx.Init.FIFOMode = DMA_FIFOMODE_DISABLE;
	if (HAL_DMA_Init(&hdma_usart2_rx) != HAL_OK) {
		Error_Handler();
	}
	__HAL_LINKDMA(huart, hdmarx, hdma_usart2_rx);

	HAL_NVIC_SetPriority(DMA1_Stream5_IRQn, 5, 0);
	HAL_NVIC_EnableIRQ(DMA1_Stream5_IRQn);
	HAL_NVIC_SetPriority(USART2_IRQn, 5, 0);
	HAL_NVIC_EnableIRQ(USART2_IRQn);
}

void DMA1_Stream5_IRQHandler(void)
{
	HAL_DMA_IRQHandler(&hdma_usart2_rx);
}

void USART2_IRQHandler(void)
{
	HAL_UART_IRQHandler(&huart2);
}

void HAL_UARTEx_RxEventCallback(UART_HandleTypeDef *huart, uint16_t Size)
{
	if (huart->Instance != USART2) {
		return;
	}

	if (Size != dma_last_pos) {
		if (Size > dma_last_pos) {
			ring_put(&dma_rx_buf[dma_last_pos], (uint16_t)(Size - dma_last_pos));
		} else {
			ring_put(&dma_rx_buf[dma_last_pos], (uint16_t)(DMA_RX_SIZE - dma_last_pos));
			ring_put(&dma_rx_buf[0], Size);
		}
	}
	dma_last_pos = (Size == DMA_RX_SIZE) ? 0U : Size;
}

void HAL_UART_ErrorCallback(UART_HandleTypeDef *huart)
{
	if (huart->Instance == USART2) {
		dma_last_pos = 0;
		if (HAL_UARTEx_ReceiveToIdle_DMA(huart, dma_rx_buf, DMA_RX_SIZE) != HAL_OK) {
			Error_Handler();
		}
	}
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
