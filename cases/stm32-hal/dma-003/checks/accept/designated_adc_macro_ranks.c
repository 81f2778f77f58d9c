/*
 * ADC1 scans PA0 (rank 1) and PA1 (rank 2) forever; DMA2 Stream 0 streams the
 * results into a ping-pong buffer. Each half is reduced to two means, which
 * are published as one 32-bit word so the main loop can never see the
 * channel-0 mean of one block paired with the channel-1 mean of another.
 *
 * The ADC handle is configured with designated initializers and the rank
 * count is a named constant.
 */
#include <stdint.h>

#include "stm32f4xx_hal.h"

#define PAIRS_PER_HALF 16U
#define WORDS_PER_HALF (PAIRS_PER_HALF * 2U)   /* ch0, ch1 interleaved */
#define SAMPLE_COUNT   (WORDS_PER_HALF * 2U)   /* two halves */
#define SCAN_RANKS     2U                      /* PA0, PA1 */

#define LD2_PORT GPIOA
#define LD2_PIN  GPIO_PIN_5

void Error_Handler(void);

ADC_HandleTypeDef adc1 = {
	.Instance = ADC1,
	.Init = {
		.ClockPrescaler = ADC_CLOCK_SYNC_PCLK_DIV2,
		.Resolution = ADC_RESOLUTION_12B,
		.DataAlign = ADC_DATAALIGN_RIGHT,
		.ScanConvMode = ENABLE,
		.ContinuousConvMode = ENABLE,
		.DiscontinuousConvMode = DISABLE,
		.NbrOfConversion = SCAN_RANKS,
		.ExternalTrigConv = ADC_SOFTWARE_START,
		.ExternalTrigConvEdge = ADC_EXTERNALTRIGCONVEDGE_NONE,
		.EOCSelection = ADC_EOC_SINGLE_CONV,
		.DMAContinuousRequests = ENABLE,
	},
};
DMA_HandleTypeDef adc1_dma;

static uint16_t samples[SAMPLE_COUNT];

/* Low half-word: channel-0 mean, high half-word: channel-1 mean. */
static volatile uint32_t latest_means;
/* Set by the conversion callbacks, cleared by the main loop. */
static volatile uint8_t block_ready;

/* Means of the 16 (ch0, ch1) pairs starting at 'half', packed. */
static uint32_t pack_means(const uint16_t *half)
{
	const uint16_t *p = half;
	const uint16_t *const end = half + WORDS_PER_HALF;
	uint32_t acc0 = 0U;
	uint32_t acc1 = 0U;

	while (p < end) {
		acc0 += *p++;
		acc1 += *p++;
	}
	return ((acc1 / PAIRS_PER_HALF) << 16) | (acc0 / PAIRS_PER_HALF);
}

void HAL_ADC_ConvHalfCpltCallback(ADC_HandleTypeDef *hadc)
{
	if (hadc != &adc1) {
		return;
	}
	/* DMA is now writing the upper half; the lower one is stable. */
	latest_means = pack_means(samples);
	block_ready = 1U;
}

void HAL_ADC_ConvCpltCallback(ADC_HandleTypeDef *hadc)
{
	if (hadc != &adc1) {
		return;
	}
	/* DMA wrapped to the lower half; the upper one is stable. */
	latest_means = pack_means(samples + WORDS_PER_HALF);
	block_ready = 1U;
}

void DMA2_Stream0_IRQHandler(void)
{
	HAL_DMA_IRQHandler(adc1.DMA_Handle);
}

void SysTick_Handler(void)
{
	HAL_IncTick();
}

static void adc1_attach_dma(ADC_HandleTypeDef *hadc)
{
	__HAL_RCC_DMA2_CLK_ENABLE();

	adc1_dma.Instance = DMA2_Stream0;
	adc1_dma.Init.Channel = DMA_CHANNEL_0;
	adc1_dma.Init.Direction = DMA_PERIPH_TO_MEMORY;
	adc1_dma.Init.PeriphInc = DMA_PINC_DISABLE;
	adc1_dma.Init.MemInc = DMA_MINC_ENABLE;
	adc1_dma.Init.PeriphDataAlignment = DMA_PDATAALIGN_HALFWORD;
	adc1_dma.Init.MemDataAlignment = DMA_MDATAALIGN_HALFWORD;
	adc1_dma.Init.Mode = DMA_CIRCULAR;
	adc1_dma.Init.Priority = DMA_PRIORITY_MEDIUM;
	adc1_dma.Init.FIFOMode = DMA_FIFOMODE_DISABLE;
	if (HAL_DMA_Init(&adc1_dma) != HAL_OK) {
		Error_Handler();
	}
	__HAL_LINKDMA(hadc, DMA_Handle, adc1_dma);

	HAL_NVIC_SetPriority(DMA2_Stream0_IRQn, 2U, 0U);
	HAL_NVIC_EnableIRQ(DMA2_Stream0_IRQn);
}

void HAL_ADC_MspInit(ADC_HandleTypeDef *hadc)
{
	GPIO_InitTypeDef analog_in = {
		.Pin = GPIO_PIN_0 | GPIO_PIN_1,
		.Mode = GPIO_MODE_ANALOG,
		.Pull = GPIO_NOPULL,
	};

	if (hadc->Instance == ADC1) {
		__HAL_RCC_GPIOA_CLK_ENABLE();
		__HAL_RCC_ADC1_CLK_ENABLE();
		HAL_GPIO_Init(GPIOA, &analog_in);
		adc1_attach_dma(hadc);
	}
}

static HAL_StatusTypeDef adc1_configure(void)
{
	static const uint32_t scan_order[] = { ADC_CHANNEL_0, ADC_CHANNEL_1 };
	ADC_ChannelConfTypeDef rank = { .SamplingTime = ADC_SAMPLETIME_480CYCLES };

	if (HAL_ADC_Init(&adc1) != HAL_OK) {
		return HAL_ERROR;
	}

	for (uint32_t i = 0U; i < sizeof scan_order / sizeof scan_order[0]; i++) {
		rank.Channel = scan_order[i];
		rank.Rank = i + 1U;
		if (HAL_ADC_ConfigChannel(&adc1, &rank) != HAL_OK) {
			return HAL_ERROR;
		}
	}
	return HAL_OK;
}

static void ld2_setup(void)
{
	GPIO_InitTypeDef out = {
		.Pin = LD2_PIN,
		.Mode = GPIO_MODE_OUTPUT_PP,
		.Pull = GPIO_NOPULL,
		.Speed = GPIO_SPEED_FREQ_LOW,
	};

	__HAL_RCC_GPIOA_CLK_ENABLE();
	HAL_GPIO_WritePin(LD2_PORT, LD2_PIN, GPIO_PIN_RESET);
	HAL_GPIO_Init(LD2_PORT, &out);
}

int main(void)
{
	HAL_Init();
	ld2_setup();

	if (adc1_configure() != HAL_OK ||
	    HAL_ADC_Start_DMA(&adc1, (uint32_t *)samples, SAMPLE_COUNT) != HAL_OK) {
		Error_Handler();
	}

	for (;;) {
		uint32_t means;
		GPIO_PinState led;

		if (block_ready == 0U) {
			continue;
		}
		/* Clear first: a block that lands meanwhile sets it again. */
		block_ready = 0U;
		means = latest_means;
		led = ((means & 0xFFFFU) > (means >> 16)) ? GPIO_PIN_SET : GPIO_PIN_RESET;
		HAL_GPIO_WritePin(LD2_PORT, LD2_PIN, led);
	}
}

void Error_Handler(void)
{
	__disable_irq();
	for (;;) {
	}
}
