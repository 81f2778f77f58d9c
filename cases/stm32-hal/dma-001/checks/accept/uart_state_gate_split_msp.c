/*
 * NUCLEO-F401RE: "uptime <n> s" once per second on the ST-LINK VCP (USART2),
 * moved to the UART by DMA1 Stream 6 / channel 4.
 *
 * The driver state itself is the gate: while a line is in flight the UART's
 * gState stays BUSY_TX until the transmit-complete interrupt, so a second whose
 * line would overlap the previous one is simply skipped.
 */
#include <stdio.h>
#include <stdint.h>

#include "stm32f4xx_hal.h"

#define REPORT_PERIOD_MS 1000U
#define VCP_IRQ_PRIORITY 6U

void Error_Handler(void);

static struct {
	UART_HandleTypeDef uart;
	DMA_HandleTypeDef tx_dma;
	char text[sizeof("uptime 4294967295 s\r\n")];
	volatile uint32_t lines_done;
} vcp;

/* ---- MSP: pins, DMA stream and interrupts of USART2 ------------------- */

static void vcp_gpio_setup(void)
{
	GPIO_InitTypeDef pins = {
		.Pin = GPIO_PIN_2 | GPIO_PIN_3,
		.Mode = GPIO_MODE_AF_PP,
		.Pull = GPIO_NOPULL,
		.Speed = GPIO_SPEED_FREQ_HIGH,
		.Alternate = GPIO_AF7_USART2,
	};

	HAL_GPIO_Init(GPIOA, &pins);
}

static void vcp_tx_dma_setup(UART_HandleTypeDef *owner)
{
	vcp.tx_dma.Instance = DMA1_Stream6;
	vcp.tx_dma.Init = (DMA_InitTypeDef){
		.Channel = DMA_CHANNEL_4,
		.Direction = DMA_MEMORY_TO_PERIPH,
		.PeriphInc = DMA_PINC_DISABLE,
		.MemInc = DMA_MINC_ENABLE,
		.PeriphDataAlignment = DMA_PDATAALIGN_BYTE,
		.MemDataAlignment = DMA_MDATAALIGN_BYTE,
		.Mode = DMA_NORMAL,
		.Priority = DMA_PRIORITY_MEDIUM,
		.FIFOMode = DMA_FIFOMODE_DISABLE,
	};
	if (HAL_DMA_Init(&vcp.tx_dma) != HAL_OK) {
		Error_Handler();
	}

	/* What __HAL_LINKDMA(owner, hdmatx, vcp.tx_dma) expands to. */
	owner->hdmatx = &vcp.tx_dma;
	vcp.tx_dma.Parent = owner;
}

void HAL_UART_MspInit(UART_HandleTypeDef *huart)
{
	if (huart->Instance == USART2) {
		__HAL_RCC_DMA1_CLK_ENABLE();
		__HAL_RCC_GPIOA_CLK_ENABLE();
		__HAL_RCC_USART2_CLK_ENABLE();

		vcp_gpio_setup();
		vcp_tx_dma_setup(huart);

		HAL_NVIC_SetPriority(USART2_IRQn, VCP_IRQ_PRIORITY, 0U);
		HAL_NVIC_EnableIRQ(USART2_IRQn);
		HAL_NVIC_SetPriority(DMA1_Stream6_IRQn, VCP_IRQ_PRIORITY, 0U);
		HAL_NVIC_EnableIRQ(DMA1_Stream6_IRQn);
	}
}

/* ---- interrupt side ----------------------------------------------------- */

void SysTick_Handler(void)
{
	HAL_IncTick();
}

void USART2_IRQHandler(void)
{
	HAL_UART_IRQHandler(&vcp.uart);
}

void DMA1_Stream6_IRQHandler(void)
{
	HAL_DMA_IRQHandler(&vcp.tx_dma);
}

void HAL_UART_TxCpltCallback(UART_HandleTypeDef *huart)
{
	if (huart == &vcp.uart) {
		vcp.lines_done++;
	}
}

/* ---- application --------------------------------------------------------- */

static void vcp_open(void)
{
	vcp.uart.Instance = USART2;
	vcp.uart.Init = (UART_InitTypeDef){
		.BaudRate = 115200U,
		.WordLength = UART_WORDLENGTH_8B,
		.StopBits = UART_STOPBITS_1,
		.Parity = UART_PARITY_NONE,
		.Mode = UART_MODE_TX_RX,
		.HwFlowCtl = UART_HWCONTROL_NONE,
		.OverSampling = UART_OVERSAMPLING_16,
	};
	if (HAL_UART_Init(&vcp.uart) != HAL_OK) {
		Error_Handler();
	}
}

/* Starts one line; returns without touching the buffer while the last one is
 * still being sent (gState is BUSY_TX until the TC interrupt). */
static void vcp_report(uint32_t uptime_s)
{
	int n;

	if (HAL_UART_GetState(&vcp.uart) != HAL_UART_STATE_READY) {
		return;
	}

	n = snprintf(vcp.text, sizeof(vcp.text), "uptime %lu s\r\n", (unsigned long)uptime_s);
	if (n <= 0 || (size_t)n >= sizeof(vcp.text)) {
		Error_Handler();
	}
	if (HAL_UART_Transmit_DMA(&vcp.uart, (uint8_t *)vcp.text, (uint16_t)n) != HAL_OK) {
		Error_Handler();
	}
}

int main(void)
{
	uint32_t uptime_s = 0U;
	uint32_t mark;

	if (HAL_Init() != HAL_OK) {
		Error_Handler();
	}
	vcp_open();

	mark = HAL_GetTick();
	vcp_report(uptime_s);
	for (;;) {
		if (HAL_GetTick() - mark >= REPORT_PERIOD_MS) {
			mark += REPORT_PERIOD_MS;
			uptime_s++;
			vcp_report(uptime_s);
		}
		/* free for other work: nothing here waits for the UART */
	}
}

void Error_Handler(void)
{
	__disable_irq();
	for (;;) {
	}
}
