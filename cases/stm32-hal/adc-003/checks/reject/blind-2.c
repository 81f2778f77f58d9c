/* defect: the channel is sampled for only 3 ADC cycles (0.375 us at 8 MHz), far too short for the sampling capacitor to settle through a ~10 kOhm source.
 * breaks: "Initialise ADC1 once at start-up: 12-bit resolution, right-aligned data, single conversion (no scan, no continuous mode), software start, a sampling time long enough for a source impedance of about 10 kOhm."
 * must_fail: sampling_time_fits_10k_source
 */
/* main.c - NUCLEO-F401RE: read a potentiometer on PA0 (A0, ADC1_IN0) by polling */
#include "stm32f4xx_hal.h"

#define ADC_POLL_TIMEOUT_MS   10U
#define SAMPLE_PERIOD_MS      100U
#define ADC_READ_ERROR        0xFFFFFFFFUL

ADC_HandleTypeDef hadc1;

/* Latest potentiometer reading, watched from the debugger. */
volatile uint32_t pot_value = 0U;

void Error_Handler(void);
static void MX_ADC1_Init(void);
uint32_t read_pot(void);

int main(void)
{
    /* Core stays on the reset-default 16 MHz HSI: no SystemClock_Config needed.
     * HAL_Init configures SysTick for a 1 ms tick from SystemCoreClock. */
    if (HAL_Init() != HAL_OK) {
        Error_Handler();
    }

    MX_ADC1_Init();

    while (1) {
        pot_value = read_pot();
        HAL_Delay(SAMPLE_PERIOD_MS);
    }
}

/* One software-triggered single conversion of ADC1 channel 0, polled. */
uint32_t read_pot(void)
{
    uint32_t raw;

    if (HAL_ADC_Start(&hadc1) != HAL_OK) {
        return ADC_READ_ERROR;
    }

    if (HAL_ADC_PollForConversion(&hadc1, ADC_POLL_TIMEOUT_MS) != HAL_OK) {
        (void)HAL_ADC_Stop(&hadc1);
        return ADC_READ_ERROR;
    }

    raw = HAL_ADC_GetValue(&hadc1);
    (void)HAL_ADC_Stop(&hadc1);

    return raw;
}

static void MX_ADC1_Init(void)
{
    ADC_ChannelConfTypeDef sConfig = {0};

    hadc1.Instance                   = ADC1;
    hadc1.Init.ClockPrescaler        = ADC_CLOCK_SYNC_PCLK_DIV2;   /* 16 MHz / 2 = 8 MHz */
    hadc1.Init.Resolution            = ADC_RESOLUTION_12B;
    hadc1.Init.DataAlign             = ADC_DATAALIGN_RIGHT;
    hadc1.Init.ScanConvMode          = DISABLE;
    hadc1.Init.ContinuousConvMode    = DISABLE;
    hadc1.Init.DiscontinuousConvMode = DISABLE;
    hadc1.Init.NbrOfDiscConversion   = 0U;
    hadc1.Init.ExternalTrigConv      = ADC_SOFTWARE_START;
    hadc1.Init.ExternalTrigConvEdge  = ADC_EXTERNALTRIGCONVEDGE_NONE;
    hadc1.Init.NbrOfConversion       = 1U;
    hadc1.Init.DMAContinuousRequests = DISABLE;
    hadc1.Init.EOCSelection          = ADC_EOC_SINGLE_CONV;

    if (HAL_ADC_Init(&hadc1) != HAL_OK) {
        Error_Handler();
    }

    /* Rank 1: the potentiometer on IN0. */
    sConfig.Channel      = ADC_CHANNEL_0;
    sConfig.Rank         = 1U;
    sConfig.SamplingTime = ADC_SAMPLETIME_3CYCLES;
    sConfig.Offset       = 0U;

    if (HAL_ADC_ConfigChannel(&hadc1, &sConfig) != HAL_OK) {
        Error_Handler();
    }
}

/* Called by HAL_ADC_Init: clocks and pin for ADC1 channel 0 (PA0). */
void HAL_ADC_MspInit(ADC_HandleTypeDef *hadc)
{
    GPIO_InitTypeDef gpio = {0};

    if (hadc->Instance == ADC1) {
        __HAL_RCC_ADC1_CLK_ENABLE();
        __HAL_RCC_GPIOA_CLK_ENABLE();

        gpio.Pin  = GPIO_PIN_0;
        gpio.Mode = GPIO_MODE_ANALOG;
        gpio.Pull = GPIO_NOPULL;
        HAL_GPIO_Init(GPIOA, &gpio);
    }
}

void HAL_ADC_MspDeInit(ADC_HandleTypeDef *hadc)
{
    if (hadc->Instance == ADC1) {
        __HAL_RCC_ADC1_CLK_DISABLE();
        HAL_GPIO_DeInit(GPIOA, GPIO_PIN_0);
    }
}

/* main.c is the only application source: the 1 ms HAL tick lives here. */
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

#ifdef USE_FULL_ASSERT
void assert_failed(uint8_t *file, uint32_t line)
{
    (void)file;
    (void)line;
    Error_Handler();
}
#endif
