/*
 * main.c - NUCLEO-F401RE: ADC1 scans PA0 (IN0) and PA1 (IN1) continuously,
 * DMA2 Stream 0 / channel 0 moves the samples into a circular buffer of 64
 * half-words. Each half (16 pairs) is averaged in the DMA half/full callbacks
 * while the DMA fills the other half. The main loop drives LD2 (PA5).
 */
#include "stm32f4xx_hal.h"

#define ADC_NUM_CHANNELS   2U
#define ADC_BUF_LEN        64U                         /* half-words */
#define ADC_HALF_LEN       (ADC_BUF_LEN / 2U)          /* 32 samples = 16 pairs */
#define PAIRS_PER_HALF     (ADC_HALF_LEN / ADC_NUM_CHANNELS)

ADC_HandleTypeDef hadc1;
DMA_HandleTypeDef hdma_adc1;

/* Written by the DMA only. */
static uint16_t adc_buf[ADC_BUF_LEN];

/* Shared between the DMA callbacks (producer) and the main loop (consumer). */
static volatile uint16_t avg_ch0;
static volatile uint16_t avg_ch1;
static volatile uint8_t  block_ready;

void Error_Handler(void);
static void MX_GPIO_Init(void);
static void MX_ADC1_Init(void);

int main(void)
{
    HAL_Init();                 /* SysTick time base, 16 MHz HSI */

    MX_GPIO_Init();
    MX_ADC1_Init();             /* ADC1 + DMA2 Stream 0 set up in HAL_ADC_MspInit */

    if (HAL_ADC_Start_DMA(&hadc1, (uint32_t *)adc_buf, ADC_BUF_LEN) != HAL_OK) {
        Error_Handler();
    }

    while (1) {
        if (block_ready != 0U) {
            uint16_t a0;
            uint16_t a1;

            /* Take both averages as one consistent pair. */
            __disable_irq();
            a0 = avg_ch0;
            a1 = avg_ch1;
            block_ready = 0U;
            __enable_irq();

            HAL_GPIO_WritePin(GPIOA, GPIO_PIN_5,
                              (a0 > a1) ? GPIO_PIN_SET : GPIO_PIN_RESET);
        }
    }
}

/* First half adc_buf[0..31] is complete; the DMA is now writing the second. */
void HAL_ADC_ConvHalfCpltCallback(ADC_HandleTypeDef *hadc)
{
    uint32_t sum0 = 0U;
    uint32_t sum1 = 0U;

    if (hadc->Instance != ADC1) {
        return;
    }

    for (uint32_t i = 0U; i < ADC_HALF_LEN; i += ADC_NUM_CHANNELS) {
        sum0 += adc_buf[i];
        sum1 += adc_buf[i + 1U];
    }

    avg_ch0 = (uint16_t)(sum0 / PAIRS_PER_HALF);
    avg_ch1 = (uint16_t)(sum1 / PAIRS_PER_HALF);
    block_ready = 1U;
}

/* Second half adc_buf[32..63] is complete; the DMA wrapped to the first. */
void HAL_ADC_ConvCpltCallback(ADC_HandleTypeDef *hadc)
{
    uint32_t sum0 = 0U;
    uint32_t sum1 = 0U;

    if (hadc->Instance != ADC1) {
        return;
    }

    for (uint32_t i = ADC_HALF_LEN; i < ADC_BUF_LEN; i += ADC_NUM_CHANNELS) {
        sum0 += adc_buf[i];
        sum1 += adc_buf[i + 1U];
    }

    avg_ch0 = (uint16_t)(sum0 / PAIRS_PER_HALF);
    avg_ch1 = (uint16_t)(sum1 / PAIRS_PER_HALF);
    block_ready = 1U;
}

static void MX_ADC1_Init(void)
{
    ADC_ChannelConfTypeDef sConfig = {0};

    hadc1.Instance                   = ADC1;
    hadc1.Init.ClockPrescaler        = ADC_CLOCK_SYNC_PCLK_DIV4;   /* 4 MHz ADCCLK */
    hadc1.Init.Resolution            = ADC_RESOLUTION_12B;
    hadc1.Init.ScanConvMode          = ENABLE;
    hadc1.Init.ContinuousConvMode    = ENABLE;
    hadc1.Init.DiscontinuousConvMode = DISABLE;
    hadc1.Init.NbrOfDiscConversion   = 0U;
    hadc1.Init.ExternalTrigConvEdge  = ADC_EXTERNALTRIGCONVEDGE_NONE;
    hadc1.Init.ExternalTrigConv      = ADC_SOFTWARE_START;
    hadc1.Init.DataAlign             = ADC_DATAALIGN_RIGHT;
    hadc1.Init.NbrOfConversion       = ADC_NUM_CHANNELS;
    hadc1.Init.DMAContinuousRequests = ENABLE;
    hadc1.Init.EOCSelection          = ADC_EOC_SEQ_CONV;
    if (HAL_ADC_Init(&hadc1) != HAL_OK) {
        Error_Handler();
    }

    sConfig.Channel      = ADC_CHANNEL_0;
    sConfig.Rank         = 1U;
    sConfig.SamplingTime = ADC_SAMPLETIME_480CYCLES;
    sConfig.Offset       = 0U;
    if (HAL_ADC_ConfigChannel(&hadc1, &sConfig) != HAL_OK) {
        Error_Handler();
    }

    sConfig.Channel      = ADC_CHANNEL_1;
    sConfig.Rank         = 2U;
    if (HAL_ADC_ConfigChannel(&hadc1, &sConfig) != HAL_OK) {
        Error_Handler();
    }
}

static void MX_GPIO_Init(void)
{
    GPIO_InitTypeDef gpio = {0};

    __HAL_RCC_GPIOA_CLK_ENABLE();

    HAL_GPIO_WritePin(GPIOA, GPIO_PIN_5, GPIO_PIN_RESET);

    gpio.Pin   = GPIO_PIN_5;                 /* LD2 */
    gpio.Mode  = GPIO_MODE_OUTPUT_PP;
    gpio.Pull  = GPIO_NOPULL;
    gpio.Speed = GPIO_SPEED_FREQ_LOW;
    HAL_GPIO_Init(GPIOA, &gpio);
}

/* Peripheral-specific setup: clocks, analog pins, DMA stream and its IRQ. */
void HAL_ADC_MspInit(ADC_HandleTypeDef *hadc)
{
    GPIO_InitTypeDef gpio = {0};

    if (hadc->Instance != ADC1) {
        return;
    }

    __HAL_RCC_ADC1_CLK_ENABLE();
    __HAL_RCC_GPIOA_CLK_ENABLE();
    __HAL_RCC_DMA2_CLK_ENABLE();

    gpio.Pin  = GPIO_PIN_0 | GPIO_PIN_1;
    gpio.Mode = GPIO_MODE_ANALOG;
    gpio.Pull = GPIO_NOPULL;
    HAL_GPIO_Init(GPIOA, &gpio);

    hdma_adc1.Instance                 = DMA2_Stream0;
    hdma_adc1.Init.Channel             = DMA_CHANNEL_0;
    hdma_adc1.Init.Direction           = DMA_PERIPH_TO_MEMORY;
    hdma_adc1.Init.PeriphInc           = DMA_PINC_DISABLE;
    hdma_adc1.Init.MemInc              = DMA_MINC_ENABLE;
    hdma_adc1.Init.PeriphDataAlignment = DMA_PDATAALIGN_HALFWORD;
    hdma_adc1.Init.MemDataAlignment    = DMA_MDATAALIGN_HALFWORD;
    hdma_adc1.Init.Mode                = DMA_CIRCULAR;
    hdma_adc1.Init.Priority            = DMA_PRIORITY_HIGH;
    hdma_adc1.Init.FIFOMode            = DMA_FIFOMODE_DISABLE;
    if (HAL_DMA_Init(&hdma_adc1) != HAL_OK) {
        Error_Handler();
    }

    __HAL_LINKDMA(hadc, DMA_Handle, hdma_adc1);

    HAL_NVIC_SetPriority(DMA2_Stream0_IRQn, 1, 0);
    HAL_NVIC_EnableIRQ(DMA2_Stream0_IRQn);
}

void HAL_ADC_MspDeInit(ADC_HandleTypeDef *hadc)
{
    if (hadc->Instance == ADC1) {
        __HAL_RCC_ADC1_CLK_DISABLE();
        HAL_GPIO_DeInit(GPIOA, GPIO_PIN_0 | GPIO_PIN_1);
        HAL_DMA_DeInit(hadc->DMA_Handle);
        HAL_NVIC_DisableIRQ(DMA2_Stream0_IRQn);
    }
}

void DMA2_Stream0_IRQHandler(void)
{
    HAL_DMA_IRQHandler(&hdma_adc1);
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
