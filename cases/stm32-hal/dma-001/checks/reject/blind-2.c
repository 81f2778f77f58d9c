/* defect: USART2_IRQn is never enabled in the NVIC, so the TC interrupt that completes a DMA transmit never runs, HAL_UART_TxCpltCallback never fires and every line after the first is skipped.
 * breaks: "Once per second send the line `uptime <n> s` (CR LF terminated), `<n>` counting up from 0."
 * must_fail: uart_irq_serviced
 */
#include "stm32f4xx_hal.h"
#include <stdio.h>
#include <string.h>

UART_HandleTypeDef huart2;
DMA_HandleTypeDef hdma_usart2_tx;

static uint8_t tx_buf[32];
static volatile uint8_t tx_busy;

void Error_Handler(void);
static void MX_USART2_UART_Init(void);

int main(void)
{
    uint32_t uptime_s = 0U;
    uint32_t next_tick;

    if (HAL_Init() != HAL_OK) {
        Error_Handler();
    }

    /* System clock stays at the reset default (HSI 16 MHz). */

    MX_USART2_UART_Init();

    next_tick = HAL_GetTick();

    while (1) {
        if ((int32_t)(HAL_GetTick() - next_tick) >= 0) {
            next_tick += 1000U;

            if (!tx_busy) {
                int len = snprintf((char *)tx_buf, sizeof(tx_buf),
                                   "uptime %lu s\r\n", (unsigned long)uptime_s);
                if (len < 0 || len >= (int)sizeof(tx_buf)) {
                    Error_Handler();
                }
                tx_busy = 1U;
                if (HAL_UART_Transmit_DMA(&huart2, tx_buf, (uint16_t)len) != HAL_OK) {
                    tx_busy = 0U;
                    Error_Handler();
                }
            }
            /* else: previous line still in flight, skip this second's line */

            uptime_s++;
        }

        /* Other work can be done here; the UART is served by DMA. */
        __WFI();
    }
}

static void MX_USART2_UART_Init(void)
{
    huart2.Instance = USART2;
    huart2.Init.BaudRate = 115200U;
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

    /* PA2 = USART2_TX, PA3 = USART2_RX, AF7 */
    gpio.Pin = GPIO_PIN_2 | GPIO_PIN_3;
    gpio.Mode = GPIO_MODE_AF_PP;
    gpio.Pull = GPIO_PULLUP;
    gpio.Speed = GPIO_SPEED_FREQ_VERY_HIGH;
    gpio.Alternate = GPIO_AF7_USART2;
    HAL_GPIO_Init(GPIOA, &gpio);

    /* USART2_TX: DMA1 Stream 6, Channel 4 */
    hdma_usart2_tx.Instance = DMA1_Stream6;
    hdma_usart2_tx.Init.Channel = DMA_CHANNEL_4;
    hdma_usart2_tx.Init.Direction = DMA_MEMORY_TO_PERIPH;
    hdma_usart2_tx.Init.PeriphInc = DMA_PINC_DISABLE;
    hdma_usart2_tx.Init.MemInc = DMA_MINC_ENABLE;
    hdma_usart2_tx.Init.PeriphDataAlignment = DMA_PDATAALIGN_BYTE;
    hdma_usart2_tx.Init.MemDataAlignment = DMA_MDATAALIGN_BYTE;
    hdma_usart2_tx.Init.Mode = DMA_NORMAL;
    hdma_usart2_tx.Init.Priority = DMA_PRIORITY_LOW;
    hdma_usart2_tx.Init.FIFOMode = DMA_FIFOMODE_DISABLE;
    if (HAL_DMA_Init(&hdma_usart2_tx) != HAL_OK) {
        Error_Handler();
    }

    __HAL_LINKDMA(huart, hdmatx, hdma_usart2_tx);

    HAL_NVIC_SetPriority(DMA1_Stream6_IRQn, 5, 0);
    HAL_NVIC_EnableIRQ(DMA1_Stream6_IRQn);
}

void HAL_UART_MspDeInit(UART_HandleTypeDef *huart)
{
    if (huart->Instance != USART2) {
        return;
    }
    __HAL_RCC_USART2_CLK_DISABLE();
    HAL_GPIO_DeInit(GPIOA, GPIO_PIN_2 | GPIO_PIN_3);
    HAL_DMA_DeInit(huart->hdmatx);
    HAL_NVIC_DisableIRQ(DMA1_Stream6_IRQn);
}

void HAL_UART_TxCpltCallback(UART_HandleTypeDef *huart)
{
    if (huart->Instance == USART2) {
        tx_busy = 0U;
    }
}

void HAL_UART_ErrorCallback(UART_HandleTypeDef *huart)
{
    if (huart->Instance == USART2 && huart->gState == HAL_UART_STATE_READY) {
        tx_busy = 0U;
    }
}

void SysTick_Handler(void)
{
    HAL_IncTick();
}

void DMA1_Stream6_IRQHandler(void)
{
    HAL_DMA_IRQHandler(&hdma_usart2_tx);
}

void USART2_IRQHandler(void)
{
    HAL_UART_IRQHandler(&huart2);
}

void Error_Handler(void)
{
    __disable_irq();
    while (1) {
    }
}
