/* defect: The half-transfer and transfer-complete callbacks average the wrong halves, i.e. always the half the DMA is currently overwriting rather than the one just completed.
 * breaks: "Each time one half of that buffer has been filled, compute the average of channel 0 and of channel 1 over the 16 pairs of that half while the DMA fills the other half, and publish the two averages for the main loop."
 * must_fail: each_callback_processes_its_half
 */
/*
 * main.c - NUCLEO-F401RE, STM32CubeF4 HAL
 *
 * Background dual-channel sampling: ADC1 scans IN0 (PA0) then IN1 (PA1) in
 * continuous mode; DMA2 Stream 0 (channel 0) streams every result into a
 * circular 64-entry half-word buffer. The half-transfer and transfer-complete
 * callbacks each average the 16 (ch0, ch1) pairs of the half that just became
 * stable and publish the result; the main loop mirrors "ch0 > ch1" on LD2.
 */
#include <stdint.h>
#include "stm32f4xx_hal.h"

#define SAMPLES_TOTAL     64U
#define SAMPLES_PER_HALF  (SAMPLES_TOTAL / 2U)
#define CHANNELS          2U
#define PAIRS             (SAMPLES_PER_HALF / CHANNELS)     /* 16 */

#define LD2_PORT          GPIOA
#define LD2_PIN           GPIO_PIN_5

static ADC_HandleTypeDef hadc1;
static DMA_HandleTypeDef hdma_adc1;

static uint16_t samples[SAMPLES_TOTAL];

/* Both averages packed in one word (ch0 in the low half, ch1 in the high
 * half) so a single aligned 32-bit store publishes them atomically, plus a
 * sequence number that the main loop uses to detect a new block. */
static volatile uint32_t published_avgs;
static volatile uint32_t published_seq;

void Error_Handler(void);

static void publish_block(const uint16_t *half)
{
    uint32_t acc0 = 0U;
    uint32_t acc1 = 0U;
    uint32_t p;

    for (p = 0U; p < PAIRS; p++) {
        acc0 += half[CHANNELS * p];
        acc1 += half[CHANNELS * p + 1U];
    }

    published_avgs = (acc0 / PAIRS) | ((acc1 / PAIRS) << 16);
    published_seq  = published_seq + 1U;
}

void HAL_ADC_ConvHalfCpltCallback(ADC_HandleTypeDef *hadc)
{
    if (hadc == &hadc1) {
        publish_block(&samples[SAMPLES_PER_HALF]);
    }
}

void HAL_ADC_ConvCpltCallback(ADC_HandleTypeDef *hadc)
{
    if (hadc == &hadc1) {
        publish_block(&samples[0]);
    }
}

static void led_init(void)
{
    GPIO_InitTypeDef io = {
        .Pin   = LD2_PIN,
        .Mode  = GPIO_MODE_OUTPUT_PP,
        .Pull  = GPIO_NOPULL,
        .Speed = GPIO_SPEED_FREQ_LOW,
    };

    __HAL_RCC_GPIOA_CLK_ENABLE();
    HAL_GPIO_WritePin(LD2_PORT, LD2_PIN, GPIO_PIN_RESET);
    HAL_GPIO_Init(LD2_PORT, &io);
}

static void adc_init(void)
{
    static const uint32_t channels[CHANNELS] = { ADC_CHANNEL_0, ADC_CHANNEL_1 };
    ADC_ChannelConfTypeDef cfg = {0};
    uint32_t i;

    hadc1.Instance = ADC1;
    hadc1.Init.ClockPrescaler        = ADC_CLOCK_SYNC_PCLK_DIV2;
    hadc1.Init.Resolution            = ADC_RESOLUTION_12B;
    hadc1.Init.DataAlign             = ADC_DATAALIGN_RIGHT;
    hadc1.Init.ScanConvMode          = ENABLE;
    hadc1.Init.EOCSelection          = ADC_EOC_SINGLE_CONV;
    hadc1.Init.ContinuousConvMode    = ENABLE;
    hadc1.Init.NbrOfConversion       = CHANNELS;
    hadc1.Init.DiscontinuousConvMode = DISABLE;
    hadc1.Init.NbrOfDiscConversion   = 1U;
    hadc1.Init.ExternalTrigConv      = ADC_SOFTWARE_START;
    hadc1.Init.ExternalTrigConvEdge  = ADC_EXTERNALTRIGCONVEDGE_NONE;
    hadc1.Init.DMAContinuousRequests = ENABLE;

    if (HAL_ADC_Init(&hadc1) != HAL_OK) {
        Error_Handler();
    }

    for (i = 0U; i < CHANNELS; i++) {
        cfg.Channel      = channels[i];
        cfg.Rank         = i + 1U;
        cfg.SamplingTime = ADC_SAMPLETIME_480CYCLES;
        cfg.Offset       = 0U;
        if (HAL_ADC_ConfigChannel(&hadc1, &cfg) != HAL_OK) {
            Error_Handler();
        }
    }
}

int main(void)
{
    uint32_t seen_seq;

    if (HAL_Init() != HAL_OK) {
        Error_Handler();
    }

    led_init();
    adc_init();

    seen_seq = published_seq;

    if (HAL_ADC_Start_DMA(&hadc1, (uint32_t *)samples, SAMPLES_TOTAL) != HAL_OK) {
        Error_Handler();
    }

    for (;;) {
        uint32_t seq = published_seq;

        if (seq != seen_seq) {
            uint32_t avgs = published_avgs;
            uint16_t ch0  = (uint16_t)(avgs & 0xFFFFU);
            uint16_t ch1  = (uint16_t)(avgs >> 16);

            seen_seq = seq;
            HAL_GPIO_WritePin(LD2_PORT, LD2_PIN,
                              (ch0 > ch1) ? GPIO_PIN_SET : GPIO_PIN_RESET);
        }
    }
}

/* ---- HAL MSP: clocks, analog pins and the DMA stream of ADC1 ----------- */

void HAL_ADC_MspInit(ADC_HandleTypeDef *hadc)
{
    GPIO_InitTypeDef io = {0};

    if (hadc->Instance != ADC1) {
        return;
    }

    __HAL_RCC_GPIOA_CLK_ENABLE();
    __HAL_RCC_DMA2_CLK_ENABLE();
    __HAL_RCC_ADC1_CLK_ENABLE();

    io.Pin  = GPIO_PIN_0 | GPIO_PIN_1;
    io.Mode = GPIO_MODE_ANALOG;
    io.Pull = GPIO_NOPULL;
    HAL_GPIO_Init(GPIOA, &io);

    hdma_adc1.Instance = DMA2_Stream0;
    hdma_adc1.Init = (DMA_InitTypeDef){
        .Channel             = DMA_CHANNEL_0,
        .Direction           = DMA_PERIPH_TO_MEMORY,
        .PeriphInc           = DMA_PINC_DISABLE,
        .MemInc              = DMA_MINC_ENABLE,
        .PeriphDataAlignment = DMA_PDATAALIGN_HALFWORD,
        .MemDataAlignment    = DMA_MDATAALIGN_HALFWORD,
        .Mode                = DMA_CIRCULAR,
        .Priority            = DMA_PRIORITY_VERY_HIGH,
        .FIFOMode            = DMA_FIFOMODE_DISABLE,
        .FIFOThreshold       = DMA_FIFO_THRESHOLD_HALFFULL,
        .MemBurst            = DMA_MBURST_SINGLE,
        .PeriphBurst         = DMA_PBURST_SINGLE,
    };
    if (HAL_DMA_Init(&hdma_adc1) != HAL_OK) {
        Error_Handler();
    }
    __HAL_LINKDMA(hadc, DMA_Handle, hdma_adc1);

    HAL_NVIC_SetPriority(DMA2_Stream0_IRQn, 0, 0);
    HAL_NVIC_EnableIRQ(DMA2_Stream0_IRQn);
}

/* ---- Interrupt handlers (names from the CMSIS startup vector table) ---- */

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
    for (;;) {
    }
}
