#include <stdint.h>

#include "stm32f4xx_hal.h"

#define ADC_CHANNELS 2U
#define SAMPLES_PER_HALF 16U
#define ADC_BUF_LEN (2U * SAMPLES_PER_HALF * ADC_CHANNELS)
#define HALF_LEN (ADC_BUF_LEN / 2U)

ADC_HandleTypeDef hadc1;
DMA_HandleTypeDef hdma_adc1;

static uint16_t adc_buf[ADC_BUF_LEN];
static volatile uint16_t avg_ch0;
static volatile uint16_t avg_ch1;
static volatile uint32_t blocks_done;

static void adc1_init(void);
void Error_Handler(void);

static void process_block(const uint16_t *block)
{
	uint32_t sum0 = 0;
	uint32_t sum1 = 0;

	for (uint32_t i = 0; i < SAMPLES_PER_HALF; i++) {
		sum0 += block[2U * i];
		sum1 += block[2U * i + 1U];
	}
	avg_ch0 = (uint16_t)(sum0 / SAMPLES_PER_HALF);
	avg_ch1 = (uint16_t)(sum1 / SAMPLES_PER_HALF);
	blocks_done++;
}

int main(void)
{
	GPIO_InitTypeDef led = {0};
	uint32_t seen = 0;

	HAL_Init();

	__HAL_RCC_GPIOA_CLK_ENABLE();
	led.Pin = GPIO_PIN_5;
	led.Mode = GPIO_MODE_OUTPUT_PP;
	led.Pull = GPIO_NOPULL;
	led.Speed = GPIO_SPEED_FREQ_LOW;
	HAL_GPIO_Init(GPIOA, &led);

	adc1_init();
	if (HAL_ADC_Start_DMA(&hadc1, (uint32_t *)adc_buf, ADC_BUF_LEN) != HAL_OK) {
		Error_Handler();
	}

	while (1) {
		if (blocks_done != seen) {
			seen = blocks_done;
			HAL_GPIO_WritePin(GPIOA, GPIO_PIN_5, (avg_ch0 > avg_ch1) ? GPIO_PIN_SET : GPIO_PIN_RESET);
		}
		__WFI();
	}
}

static void adc1_init(void)
{
	ADC_ChannelConfTypeDef ch = {0};

	hadc1.Instance = ADC1;
	hadc1.Init.ClockPrescaler = ADC_CLOCK_SYNC_PCLK_DIV4;
	hadc1.Init.Resolution = ADC_RESOLUTION_12B;
	hadc1.Init.ScanConvMode = ENABLE;
	hadc1.Init.ContinuousConvMode = ENABLE;
	hadc1.Init.DiscontinuousConvMode = DISABLE;
	hadc1.Init.ExternalTrigConvEdge = ADC_EXTERNALTRIGCONVEDGE_NONE;
	hadc1.Init.ExternalTrigConv = ADC_SOFTWARE_START;
	hadc1.Init.DataAlign = ADC_DATAALIGN_RIGHT;
	hadc1.Init.NbrOfConversion = 2;
	hadc1.Init.DMAContinuousRequests = ENABLE;
	hadc1.Init.EOCSelection = ADC_EOC_SEQ_CONV;
	if (HAL_ADC_Init(&hadc1) != HAL_OK) {
		Error_Handler();
	}

	ch.Channel = ADC_CHANNEL_0;
	ch.Rank = 1;
	ch.SamplingTime = ADC_SAMPLETIME_480CYCLES;
	if (HAL_ADC_ConfigChannel(&hadc1, &ch) != HAL_OK) {
		Error_Handler();
	}
	ch.Channel = ADC_CHANNEL_1;
	ch.Rank = 2;
	if (HAL_ADC_ConfigChannel(&hadc1, &ch) != HAL_OK) {
		Error_Handler();
	}
}

void HAL_ADC_MspInit(ADC_HandleTypeDef *hadc)
{
	GPIO_InitTypeDef gpio = {0};

	if (hadc->Instance != ADC1) {
		return;
	}

	__HAL_RCC_ADC1_CLK_ENABLE();
	__HAL_RCC_GPIOA_CLK_ENABLE();
	__HAL_RCC_DMA2_CLK_ENABLE();

	gpio.Pin = GPIO_PIN_0 | GPIO_PIN_1;
	gpio.Mode = GPIO_MODE_ANALOG;
	gpio.Pull = GPIO_NOPULL;
	HAL_GPIO_Init(GPIOA, &gpio);

	hdma_adc1.Instance = DMA2_Stream0;
	hdma_adc1.Init.Channel = DMA_CHANNEL_0;
	hdma_adc1.Init.Direction = DMA_PERIPH_TO_MEMORY;
	hdma_adc1.Init.PeriphInc = DMA_PINC_DISABLE;
	hdma_adc1.Init.MemInc = DMA_MINC_ENABLE;
	hdma_adc1.Init.PeriphDataAlignment = DMA_PDATAALIGN_HALFWORD;
	hdma_adc1.Init.MemDataAlignment = DMA_MDATAALIGN_HALFWORD;
	hdma_adc1.Init.Mode = DMA_CIRCULAR;
	hdma_adc1.Init.Priority = DMA_PRIORITY_HIGH;
	hdma_adc1.Init.FIFOMode = DMA_FIFOMODE_DISABLE;
	if (HAL_DMA_Init(&hdma_adc1) != HAL_OK) {
		Error_Handler();
	}
	__HAL_LINKDMA(hadc, DMA_Handle, hdma_adc1);

	HAL_NVIC_SetPriority(DMA2_Stream0_IRQn, 5, 0);
	HAL_NVIC_EnableIRQ(DMA2_Stream0_IRQn);
}

void DMA2_Stream0_IRQHandler(void)
{
	HAL_DMA_IRQHandler(&hdma_adc1);
}

void HAL_ADC_ConvHalfCpltCallback(ADC_HandleTypeDef *hadc)
{
	if (hadc->Instance == ADC1) {
		process_block(adc_buf);
	}
}

void HAL_ADC_ConvCpltCallback(ADC_HandleTypeDef *hadc)
{
	if (hadc->Instance == ADC1) {
		process_block(adc_buf + HALF_LEN);
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
