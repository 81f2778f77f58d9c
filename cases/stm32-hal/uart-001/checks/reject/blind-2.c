/* defect: no SysTick_Handler calling HAL_IncTick() is defined, so the HAL tick never advances (SysTick falls into the startup default handler) and the bounded receive timeout can never expire.
 * breaks: "Waiting for input must not lock up the program if no byte ever arrives and the program must keep working if the PC stays silent for a long time."
 * must_fail: systick_drives_hal_tick
 */
#include <stdint.h>
#include <string.h>
#include "stm32f4xx_hal.h"

/*
 * NUCLEO-F401RE: ST-LINK VCP on USART2 (PA2 TX / PA3 RX).
 * 115200 8N1, no flow control, polling mode only.
 * The system clock stays on the 16 MHz HSI selected at reset.
 */

static UART_HandleTypeDef uart_vcp;

void Error_Handler(void)
{
    __disable_irq();
    while (1) {
    }
}

void HAL_UART_MspInit(UART_HandleTypeDef *huart)
{
    GPIO_InitTypeDef pin;

    if (huart->Instance != USART2) {
        return;
    }

    __HAL_RCC_GPIOA_CLK_ENABLE();
    __HAL_RCC_USART2_CLK_ENABLE();

    memset(&pin, 0, sizeof(pin));
    pin.Pin = GPIO_PIN_2;                 /* USART2_TX */
    pin.Mode = GPIO_MODE_AF_PP;
    pin.Pull = GPIO_NOPULL;
    pin.Speed = GPIO_SPEED_FREQ_HIGH;
    pin.Alternate = GPIO_AF7_USART2;
    HAL_GPIO_Init(GPIOA, &pin);

    pin.Pin = GPIO_PIN_3;                 /* USART2_RX */
    pin.Pull = GPIO_PULLUP;
    HAL_GPIO_Init(GPIOA, &pin);
}

int main(void)
{
    uint8_t banner[] = "UART echo ready\r\n";
    uint8_t rx;
    HAL_StatusTypeDef status;

    if (HAL_Init() != HAL_OK) {
        Error_Handler();
    }

    uart_vcp.Instance          = USART2;
    uart_vcp.Init.BaudRate     = 115200;
    uart_vcp.Init.WordLength   = UART_WORDLENGTH_8B;
    uart_vcp.Init.StopBits     = UART_STOPBITS_1;
    uart_vcp.Init.Parity       = UART_PARITY_NONE;
    uart_vcp.Init.Mode         = UART_MODE_TX_RX;
    uart_vcp.Init.HwFlowCtl    = UART_HWCONTROL_NONE;
    uart_vcp.Init.OverSampling = UART_OVERSAMPLING_16;
    if (HAL_UART_Init(&uart_vcp) != HAL_OK) {
        Error_Handler();
    }

    if (HAL_UART_Transmit(&uart_vcp, banner, (uint16_t)strlen((const char *)banner), 1000) != HAL_OK) {
        Error_Handler();
    }

    while (1) {
        /* Bounded wait: returns HAL_TIMEOUT after 500 ms of silence. */
        status = HAL_UART_Receive(&uart_vcp, &rx, 1, 500);

        switch (status) {
        case HAL_OK:
            if (HAL_UART_Transmit(&uart_vcp, &rx, 1, 50) != HAL_OK) {
                Error_Handler();
            }
            break;

        case HAL_TIMEOUT:
            /* PC silent; poll again. */
            break;

        default:
            /* Line error on reception: clear the sticky flags and keep echoing. */
            __HAL_UART_CLEAR_OREFLAG(&uart_vcp);
            uart_vcp.ErrorCode = HAL_UART_ERROR_NONE;
            break;
        }
    }
}
