/* defect: any non-OK status from the 100 ms receive poll, including a plain HAL_TIMEOUT when no byte arrived, goes to Error_Handler and halts the board.
 * breaks: "Waiting for input must not lock up the program if no byte ever arrives and the program must keep working if the PC stays silent for a long time."
 * must_fail: receive_timeout_bounded_and_nonfatal
 */
/*
 * main.c - USART2 greeting and byte echo on a NUCLEO-F401RE (STM32CubeF4 HAL).
 *
 * USART2 (PA2 = TX, PA3 = RX, AF7) is connected to the ST-LINK virtual COM port.
 * The core runs from the reset-default 16 MHz HSI; no PLL is configured.
 */
#include "stm32f4xx_hal.h"

#define UART_TX_TIMEOUT_MS   100U
#define UART_RX_TIMEOUT_MS   100U

UART_HandleTypeDef huart2;

void Error_Handler(void);
static void MX_USART2_UART_Init(void);
static void uart_send(const uint8_t *data, uint16_t len);

/* The HAL time base: SysTick is configured by HAL_Init() for a 1 ms period. */
void SysTick_Handler(void)
{
    HAL_IncTick();
}

/* Called from HAL_UART_Init(): clocks and pins for USART2. */
void HAL_UART_MspInit(UART_HandleTypeDef *huart)
{
    GPIO_InitTypeDef gpio = {0};

    if (huart->Instance == USART2) {
        __HAL_RCC_USART2_CLK_ENABLE();
        __HAL_RCC_GPIOA_CLK_ENABLE();

        /* PA2 -> USART2_TX, PA3 -> USART2_RX */
        gpio.Pin = GPIO_PIN_2 | GPIO_PIN_3;
        gpio.Mode = GPIO_MODE_AF_PP;
        gpio.Pull = GPIO_PULLUP;
        gpio.Speed = GPIO_SPEED_FREQ_VERY_HIGH;
        gpio.Alternate = GPIO_AF7_USART2;
        HAL_GPIO_Init(GPIOA, &gpio);
    }
}

void HAL_UART_MspDeInit(UART_HandleTypeDef *huart)
{
    if (huart->Instance == USART2) {
        __HAL_RCC_USART2_CLK_DISABLE();
        HAL_GPIO_DeInit(GPIOA, GPIO_PIN_2 | GPIO_PIN_3);
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

static void uart_send(const uint8_t *data, uint16_t len)
{
    if (HAL_UART_Transmit(&huart2, (uint8_t *)data, len, UART_TX_TIMEOUT_MS) != HAL_OK) {
        Error_Handler();
    }
}

int main(void)
{
    static const char greeting[] = "UART echo ready\r\n";
    uint8_t ch;

    if (HAL_Init() != HAL_OK) {
        Error_Handler();
    }

    MX_USART2_UART_Init();

    uart_send((const uint8_t *)greeting, (uint16_t)(sizeof(greeting) - 1U));

    for (;;) {
        if (HAL_UART_Receive(&huart2, &ch, 1U, UART_RX_TIMEOUT_MS) != HAL_OK) {
            Error_Handler();
        }
        uart_send(&ch, 1U);
    }
}

void Error_Handler(void)
{
    __disable_irq();
    for (;;) {
    }
}
