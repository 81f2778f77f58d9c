/* defect: the status of HAL_ADC_PollForConversion is discarded and the data register is read regardless, so a conversion that times out returns a stale value instead of 0xFFFFFFFF.
 * breaks: "Provide a function `uint32_t read_pot(void)` that performs one software-triggered 12-bit single conversion of ADC1 channel 0 in polling mode and returns the raw result, or `0xFFFFFFFF` if the conversion does not complete."
 * must_fail: conversion_wait_bounded_and_checked
 */
/*
 * main.c - NUCLEO-F401RE potentiometer reader
 *
 * Wiper on Arduino A0 = PA0 = ADC1_IN0. ADC1 does one software-started 12-bit
 * conversion per request, polled, no interrupts and no DMA. The core runs from
 * the reset HSI (16 MHz); SysTick provides the 1 ms HAL time base.
 */
#include <stdint.h>
#include "stm32f4xx_hal.h"

#define POT_GPIO_PORT        GPIOA
#define POT_GPIO_PIN         GPIO_PIN_0
#define POT_ADC_CHANNEL      ADC_CHANNEL_0

#define POT_CONV_TIMEOUT_MS  5U
#define POT_SAMPLE_PERIOD_MS 100U

static ADC_HandleTypeDef hadc1;

volatile uint32_t pot_value;   /* latest raw sample (0..4095), watched by the debugger */

void Error_Handler(void);

static void pot_gpio_init(void)
{
    GPIO_InitTypeDef pin = {
        .Pin  = POT_GPIO_PIN,
        .Mode = GPIO_MODE_ANALOG,
        .Pull = GPIO_NOPULL,
    };

    __HAL_RCC_GPIOA_CLK_ENABLE();
    HAL_GPIO_Init(POT_GPIO_PORT, &pin);
}

static void pot_adc_init(void)
{
    ADC_ChannelConfTypeDef ch = {0};

    /* Bus clock of ADC1 must be running before its registers are touched. */
    __HAL_RCC_ADC1_CLK_ENABLE();

    hadc1.Instance = ADC1;
    hadc1.Init = (ADC_InitTypeDef){
        .ClockPrescaler        = ADC_CLOCK_SYNC_PCLK_DIV4,      /* 16 MHz / 4 = 4 MHz */
        .Resolution            = ADC_RESOLUTION_12B,
        .DataAlign             = ADC_DATAALIGN_RIGHT,
        .ScanConvMode          = DISABLE,
        .EOCSelection          = ADC_EOC_SINGLE_CONV,
        .ContinuousConvMode    = DISABLE,
        .NbrOfConversion       = 1U,
        .DiscontinuousConvMode = DISABLE,
        .NbrOfDiscConversion   = 1U,
        .ExternalTrigConv      = ADC_SOFTWARE_START,
        .ExternalTrigConvEdge  = ADC_EXTERNALTRIGCONVEDGE_NONE,
        .DMAContinuousRequests = DISABLE,
    };

    if (HAL_ADC_Init(&hadc1) != HAL_OK) {
        Error_Handler();
    }

    /* 480 ADC cycles (120 us at 4 MHz): the sampling capacitor settles fully
     * through a ~10 kOhm potentiometer. */
    ch.Channel      = POT_ADC_CHANNEL;
    ch.Rank         = 1U;
    ch.SamplingTime = ADC_SAMPLETIME_480CYCLES;
    ch.Offset       = 0U;

    if (HAL_ADC_ConfigChannel(&hadc1, &ch) != HAL_OK) {
        Error_Handler();
    }
}

uint32_t read_pot(void)
{
    uint32_t result = 0xFFFFFFFFUL;

    if (HAL_ADC_Start(&hadc1) == HAL_OK) {
        (void)HAL_ADC_PollForConversion(&hadc1, POT_CONV_TIMEOUT_MS);
        result = HAL_ADC_GetValue(&hadc1);
        (void)HAL_ADC_Stop(&hadc1);
    }

    return result;
}

int main(void)
{
    uint32_t last_sample;

    HAL_Init();

    pot_gpio_init();
    pot_adc_init();

    pot_value = read_pot();
    last_sample = HAL_GetTick();

    for (;;) {
        if ((HAL_GetTick() - last_sample) >= POT_SAMPLE_PERIOD_MS) {
            last_sample += POT_SAMPLE_PERIOD_MS;
            pot_value = read_pot();
        }
    }
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
