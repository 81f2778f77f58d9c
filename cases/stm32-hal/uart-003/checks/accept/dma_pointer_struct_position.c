/*
 * USART2 echo: circular idle-line DMA reception on DMA1 Stream 5 feeding a
 * 256-byte FIFO with free-running indices.
 *
 * The half-transfer interrupt is deliberately left enabled: together with the
 * transfer-complete event it guarantees an Rx event at least every 32 bytes,
 * so the DMA position (taken modulo the buffer length) never laps the read
 * position and "position == read position" always means "nothing new".
 *
 * The DMA stream is configured through a pointer to its handle, and the read
 * position lives in a small struct private to interrupt context.
 */
#include <stdint.h>

#include "stm32f4xx_hal.h"

#define RX_DMA_LEN   64U
#define FIFO_LEN     256U            /* power of two: indices are masked */
#define FIFO_MASK    (FIFO_LEN - 1U)
#define ECHO_CHUNK   32U
#define ECHO_TIMEOUT_MS 100U

/* Both vectors share one preemption level, so the Rx event callback and the
 * error callback never interrupt each other. */
#define USART2_IRQ_PRIO 1U

void Error_Handler(void);

UART_HandleTypeDef huart2 = {
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
DMA_HandleTypeDef usart2_rx_dma;

/* DMA target: written by the stream, read only from the Rx event callback. */
static uint8_t rx_dma[RX_DMA_LEN];
/* Next unread position in rx_dma; interrupt context only. */
static struct {
	uint16_t rd;
} rx_pos;

/* FIFO: fifo_in is advanced by the callback, fifo_out by the main loop. */
static volatile uint8_t fifo_data[FIFO_LEN];
static volatile uint32_t fifo_in;
static volatile uint32_t fifo_out;
static volatile uint32_t fifo_lost;
static volatile uint32_t uart_errors;

void SysTick_Handler(void)
{
	HAL_IncTick();
}

void USART2_IRQHandler(void)
{
	HAL_UART_IRQHandler(&huart2);
}

void DMA1_Stream5_IRQHandler(void)
{
	HAL_DMA_IRQHandler(&usart2_rx_dma);
}

static void rx_arm(void)
{
	if (HAL_UARTEx_ReceiveToIdle_DMA(&huart2, rx_dma, RX_DMA_LEN) != HAL_OK) {
		Error_Handler();
	}
}

/* Copy rx_dma[from .. to) (circularly) into the FIFO, dropping what does
 * not fit. Runs in interrupt context: no waiting of any kind. */
static void dma_span_to_fifo(uint16_t from, uint16_t to)
{
	uint32_t in = fifo_in;
	const uint32_t out = fifo_out;

	for (; from != to; from = (uint16_t)((from + 1U) % RX_DMA_LEN)) {
		if ((uint32_t)(in - out) >= FIFO_LEN) {
			fifo_lost++;
		} else {
			fifo_data[in & FIFO_MASK] = rx_dma[from];
			in++;
		}
	}
	fifo_in = in;
}

void HAL_UARTEx_RxEventCallback(UART_HandleTypeDef *huart, uint16_t Size)
{
	uint16_t from = rx_pos.rd;

	if (huart != &huart2) {
		return;
	}
	/* Size is the DMA write position (1..RX_DMA_LEN); the end of the buffer
	 * is position 0 of the next lap. */
	rx_pos.rd = (Size < RX_DMA_LEN) ? Size : 0U;
	dma_span_to_fifo(from, rx_pos.rd);
}

void HAL_UART_ErrorCallback(UART_HandleTypeDef *huart)
{
	if (huart != &huart2) {
		return;
	}
	uart_errors++;
	/* Make sure the stream is stopped whatever path reported the error,
	 * then start a fresh lap at the beginning of the buffer. */
	(void)HAL_UART_AbortReceive(huart);
	rx_pos.rd = 0U;
	rx_arm();
}

static void usart2_rx_dma_setup(UART_HandleTypeDef *huart)
{
	__HAL_RCC_DMA1_CLK_ENABLE();

	DMA_HandleTypeDef *dma = &usart2_rx_dma;

	dma->Instance = DMA1_Stream5;
	dma->Init.Channel = DMA_CHANNEL_4;
	dma->Init.Direction = DMA_PERIPH_TO_MEMORY;
	dma->Init.PeriphInc = DMA_PINC_DISABLE;
	dma->Init.MemInc = DMA_MINC_ENABLE;
	dma->Init.PeriphDataAlignment = DMA_PDATAALIGN_BYTE;
	dma->Init.MemDataAlignment = DMA_MDATAALIGN_BYTE;
	dma->Init.Mode = DMA_CIRCULAR;
	dma->Init.Priority = DMA_PRIORITY_MEDIUM;
	dma->Init.FIFOMode = DMA_FIFOMODE_DISABLE;
	if (HAL_DMA_Init(dma) != HAL_OK) {
		Error_Handler();
	}
	__HAL_LINKDMA(huart, hdmarx, *dma);

	HAL_NVIC_SetPriority(DMA1_Stream5_IRQn, USART2_IRQ_PRIO, 0U);
	HAL_NVIC_EnableIRQ(DMA1_Stream5_IRQn);
}

void HAL_UART_MspInit(UART_HandleTypeDef *huart)
{
	GPIO_InitTypeDef pins = {
		.Pin = GPIO_PIN_2 | GPIO_PIN_3,
		.Mode = GPIO_MODE_AF_PP,
		.Pull = GPIO_NOPULL,
		.Speed = GPIO_SPEED_FREQ_HIGH,
		.Alternate = GPIO_AF7_USART2,
	};

	if (huart->Instance == USART2) {
		__HAL_RCC_GPIOA_CLK_ENABLE();
		__HAL_RCC_USART2_CLK_ENABLE();
		HAL_GPIO_Init(GPIOA, &pins);

		usart2_rx_dma_setup(huart);

		HAL_NVIC_SetPriority(USART2_IRQn, USART2_IRQ_PRIO, 0U);
		HAL_NVIC_EnableIRQ(USART2_IRQn);
	}
}

/* Copy up to 'max' contiguous bytes out of the FIFO; returns how many. */
static uint32_t fifo_take(uint8_t *dst, uint32_t max)
{
	uint32_t n = 0U;
	uint32_t out = fifo_out;
	const uint32_t avail = fifo_in - out;

	while (n < avail && n < max) {
		dst[n] = fifo_data[out & FIFO_MASK];
		out++;
		n++;
	}
	fifo_out = out;
	return n;
}

int main(void)
{
	uint8_t chunk[ECHO_CHUNK];

	HAL_Init();
	if (HAL_UART_Init(&huart2) != HAL_OK) {
		Error_Handler();
	}
	rx_arm();

	for (;;) {
		uint32_t len = fifo_take(chunk, sizeof chunk);

		if (len == 0U) {
			__WFI();
			continue;
		}
		(void)HAL_UART_Transmit(&huart2, chunk, (uint16_t)len, ECHO_TIMEOUT_MS);
	}
}

void Error_Handler(void)
{
	__disable_irq();
	for (;;) {
	}
}
