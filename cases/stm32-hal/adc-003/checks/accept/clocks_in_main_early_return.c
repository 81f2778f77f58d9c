#include "stm32f4xx_hal.h"

ADC_HandleTypeDef hadc1;
volatile uint32_t pot_value;

static void adc1_init(void);
static void analog_pin_init(void);
uint32_t read_pot(void);
void Error_Handler(void);

int main(void)
{
	HAL_Init();
	analog_pin_init();
	adc1_init();

	while (1) {
		pot_value = read_pot();
		HAL_Delay(100);
	}
}

static void analog_pin_init(void)
{
	GPIO_InitTypeDef gpio = {0};

	__HAL_RCC_GPIOA_CLK_ENABLE();
	gpio.Pin = GPIO_PIN_0;
	gpio.Mode = GPIO_MODE_ANALOG;
	gpio.Pull = GPIO_NOPULL;
	HAL_GPIO_Init(GPIOA, &gpio);
}

static void adc1_init(void)
{
	ADC_ChannelConfTypeDef channel = {0};

	hadc1.Instance = ADC1;
	hadc1.Init.ClockPrescaler = ADC_CLOCK_SYNC_PCLK_DIV4;
	hadc1.Init.Resolution = ADC_RESOLUTION_12B;
	hadc1.Init.DataAlign = ADC_DATAALIGN_RIGHT;
	hadc1.Init.ScanConvMode = DISABLE;
	hadc1.Init.ContinuousConvMode = DISABLE;
	hadc1.Init.DiscontinuousConvMode = DISABLE;
	hadc1.Init.ExternalTrigConvEdge = ADC_EXTERNALTRIGCONVEDGE_NONE;
	hadc1.Init.ExternalTrigConv = ADC_SOFTWARE_START;
	hadc1.Init.NbrOfConversion = 1;
	hadc1.Init.DMAContinuousRequests = DISABLE;
	hadc1.Init.EOCSelection = ADC_EOC_SINGLE_CONV;

	__HAL_RCC_ADC1_CLK_ENABLE();
	if (HAL_ADC_Init(&hadc1) != HAL_OK) {
		Error_Handler();
	}

	channel.Channel = ADC_CHANNEL_0;
	channel.Rank = 1;
	channel.SamplingTime = ADC_SAMPLETIME_144CYCLES;
	if (HAL_ADC_ConfigChannel(&hadc1, &channel) != HAL_OK) {
		Error_Handler();
	}
}

uint32_t read_pot(void)
{
	uint32_t value = 0xFFFFFFFFU;

	if (HAL_ADC_Start(&hadc1) != HAL_OK) {
		return value;
	}
	HAL_StatusTypeDef st = HAL_ADC_PollForConversion(&hadc1, 5U);
	if (st != HAL_OK) {
		(void)HAL_ADC_Stop(&hadc1);
		return value;
	}
	value = HAL_ADC_GetValue(&hadc1);
	(void)HAL_ADC_Stop(&hadc1);
	return value;
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
