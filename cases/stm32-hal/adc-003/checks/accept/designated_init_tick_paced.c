/*
 * A0 potentiometer on a NUCLEO-F401RE: ADC1 channel 0 sampled by software
 * trigger, paced by the HAL tick instead of a blocking delay.
 */
#include "stm32f4xx_hal.h"

#define POT_SAMPLE_PERIOD_MS 100U
#define POT_EOC_TIMEOUT_MS   2U
#define POT_NO_SAMPLE        0xFFFFFFFFU

volatile uint32_t pot_value;

/* PCLK2 = 16 MHz HSI, /2 -> 8 MHz ADC clock; 112 cycles = 14 us of sampling,
 * ample for a 10 kOhm source.
 */
static ADC_HandleTypeDef pot_adc = {
	.Instance = ADC1,
	.Init = {
		.ClockPrescaler = ADC_CLOCK_SYNC_PCLK_DIV2,
		.Resolution = ADC_RESOLUTION_12B,
		.DataAlign = ADC_DATAALIGN_RIGHT,
		.ScanConvMode = DISABLE,
		.EOCSelection = ADC_EOC_SINGLE_CONV,
		.ContinuousConvMode = DISABLE,
		.NbrOfConversion = 1U,
		.DiscontinuousConvMode = DISABLE,
		.NbrOfDiscConversion = 0U,
		.ExternalTrigConv = ADC_SOFTWARE_START,
		.ExternalTrigConvEdge = ADC_EXTERNALTRIGCONVEDGE_NONE,
		.DMAContinuousRequests = DISABLE,
	},
};

static ADC_ChannelConfTypeDef pot_channel = {
	.Channel = ADC_CHANNEL_0,
	.Rank = 1U,
	.SamplingTime = ADC_SAMPLETIME_112CYCLES,
	.Offset = 0U,
};

void Error_Handler(void)
{
	__disable_irq();
	for (;;) {
	}
}

void SysTick_Handler(void)
{
	HAL_IncTick();
}

uint32_t read_pot(void)
{
	uint32_t sample = POT_NO_SAMPLE;

	if (HAL_ADC_Start(&pot_adc) == HAL_OK) {
		if (HAL_ADC_PollForConversion(&pot_adc, POT_EOC_TIMEOUT_MS) == HAL_OK) {
			sample = HAL_ADC_GetValue(&pot_adc);
		}
		(void)HAL_ADC_Stop(&pot_adc);
	}
	return sample;
}

/* Clocks, pin and converter in one pass; HAL_ADC_MspInit keeps its empty
 * weak default because everything it would do happens here first.
 */
static void pot_hw_setup(void)
{
	GPIO_InitTypeDef a0 = {
		.Pin = GPIO_PIN_0,
		.Mode = GPIO_MODE_ANALOG,
		.Pull = GPIO_NOPULL,
	};

	__HAL_RCC_GPIOA_CLK_ENABLE();
	HAL_GPIO_Init(GPIOA, &a0);

	__HAL_RCC_ADC1_CLK_ENABLE();
	if (HAL_ADC_Init(&pot_adc) != HAL_OK ||
	    HAL_ADC_ConfigChannel(&pot_adc, &pot_channel) != HAL_OK) {
		Error_Handler();
	}
}

int main(void)
{
	uint32_t due;

	HAL_Init();
	pot_hw_setup();

	due = HAL_GetTick();
	for (;;) {
		if ((HAL_GetTick() - due) < POT_SAMPLE_PERIOD_MS) {
			continue;
		}
		due += POT_SAMPLE_PERIOD_MS;
		pot_value = read_pot();
	}
}
