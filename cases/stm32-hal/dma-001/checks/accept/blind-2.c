#include "stm32f4xx_hal.h"
#include <stdint.h>

#define REPORT_PERIOD_MS 1000U

UART_HandleTypeDef huart2;
DMA_HandleTypeDef hdma_usart2_tx;

/* Line buffer handed to the DMA: static storage, owned by the DMA
 * from HAL_UART_Transmit_DMA() until HAL_UART_TxCpltCallback(). */
static uint8_t line_buf[24];

/* Written only by main (started) and only by the callback (finished). */
static uint32_t lines_started;
static volatile uint32_t lines_finished;

void Error_Handler(void);

static uint16_t format_line(uint8_t *dst, uint32_t seconds)
{
    static const char prefix[] = "uptime ";
    char digits[10];
    uint16_t n = 0U;
    int d = 0;
    const char *p;

    for (p = prefix; *p != '\0'; p++) {
        dst[n++] = (uint8_t)*p;
    }
    do {
        digits[d++] = (char)('0' + (seconds % 10U));
        seconds /= 10U;
    } while (seconds != 0U);
    while (d > 0) {
        dst[n++] = (uint8_t)digits[--d];
    }
    dst[n++] = ' ';
    dst[n++] = 's';
    dst[n++] = '\r';
    dst[n++] = '\n';
    return n;
}

static void uart2_init(void)
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

static void report_uptime(uint32_t seconds)
{
    uint16_t len;

    if (lines_started != lines_finished) {
        /* Previous line still on the wire: drop this one. */
        return;
    }

    len = format_line(line_buf, seconds);
    lines_started++;
    if (HAL_UART_Transmit_DMA(&huart2, line_buf, len) != HAL_OK) {
        Error_Handler();
    }
}

int main(void)
{
    uint32_t t0;
    uint32_t reported = 0U;
    int first = 1;

    if (HAL_Init() != HAL_OK) {
        Error_Handler();
    }
    /* Clock tree left at reset default: HSI, SysTick time base from HAL_Init. */

    uart2_init();

    t0 = HAL_GetTick();
    for (;;) {
        uint32_t now_s = (HAL_GetTick() - t0) / REPORT_PERIOD_MS;

        if (first || now_s != reported) {
            first = 0;
            reported = now_s;
            report_uptime(now_s);
        }

        /* Free for other work while DMA moves the bytes. */
        __WFI();
    }
}

static void uart2_gpio_setup(void)
{
    GPIO_InitTypeDef gpio = {0};

    __HAL_RCC_GPIOA_CLK_ENABLE();
    gpio.Pin = GPIO_PIN_2 | GPIO_PIN_3;
    gpio.Mode = GPIO_MODE_AF_PP;
    gpio.Pull = GPIO_NOPULL;
    gpio.Speed = GPIO_SPEED_FREQ_HIGH;
    gpio.Alternate = GPIO_AF7_USART2;
    HAL_GPIO_Init(GPIOA, &gpio);
}

static void uart2_dma_setup(UART_HandleTypeDef *huart)
{
    __HAL_RCC_DMA1_CLK_ENABLE();

    hdma_usart2_tx.Instance = DMA1_Stream6;
    hdma_usart2_tx.Init.Channel = DMA_CHANNEL_4;
    hdma_usart2_tx.Init.Direction = DMA_MEMORY_TO_PERIPH;
    hdma_usart2_tx.Init.PeriphInc = DMA_PINC_DISABLE;
    hdma_usart2_tx.Init.MemInc = DMA_MINC_ENABLE;
    hdma_usart2_tx.Init.PeriphDataAlignment = DMA_PDATAALIGN_BYTE;
    hdma_usart2_tx.Init.MemDataAlignment = DMA_MDATAALIGN_BYTE;
    hdma_usart2_tx.Init.Mode = DMA_NORMAL;
    hdma_usart2_tx.Init.Priority = DMA_PRIORITY_MEDIUM;
    hdma_usart2_tx.Init.FIFOMode = DMA_FIFOMODE_DISABLE;
    hdma_usart2_tx.Init.FIFOThreshold = DMA_FIFO_THRESHOLD_FULL;
    hdma_usart2_tx.Init.MemBurst = DMA_MBURST_SINGLE;
    hdma_usart2_tx.Init.PeriphBurst = DMA_PBURST_SINGLE;
    if (HAL_DMA_Init(&hdma_usart2_tx) != HAL_OK) {
        Error_Handler();
    }
    __HAL_LINKDMA(huart, hdmatx, hdma_usart2_tx);

    HAL_NVIC_SetPriority(DMA1_Stream6_IRQn, 6, 0);
    HAL_NVIC_EnableIRQ(DMA1_Stream6_IRQn);
}

void HAL_UART_MspInit(UART_HandleTypeDef *huart)
{
    if (huart->Instance == USART2) {
        __HAL_RCC_USART2_CLK_ENABLE();
        uart2_gpio_setup();
        uart2_dma_setup(huart);

        /* TC interrupt ends the transfer and fires HAL_UART_TxCpltCallback. */
        HAL_NVIC_SetPriority(USART2_IRQn, 6, 0);
        HAL_NVIC_EnableIRQ(USART2_IRQn);
    }
}

void HAL_UART_TxCpltCallback(UART_HandleTypeDef *huart)
{
    if (huart == &huart2) {
        lines_finished++;
    }
}

void HAL_UART_ErrorCallback(UART_HandleTypeDef *huart)
{
    if (huart == &huart2 && lines_finished != lines_started &&
        huart->gState == HAL_UART_STATE_READY) {
        lines_finished = lines_started;
    }
}

void SysTick_Handler(void)
{
    HAL_IncTick();
}

void DMA1_Stream6_IRQHandler(void)
{
    HAL_DMA_IRQHandler(huart2.hdmatx);
}

void USART2_IRQHandler(void)
{
    HAL_UART_IRQHandler(&huart2);
}

void Error_Handler(void)
{
    __disable_irq();
    for (;;) {
    }
}
