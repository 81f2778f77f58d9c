/* defect: the main loop idles with HAL_Delay(), which busy-waits on the tick counter, so the CPU never enters sleep between presses.
 * breaks: "Between presses the CPU sleeps in the main loop."
 * must_fail: main_loop_sleeps
 */
#include "stm32f4xx_hal.h"

#define LD2_GPIO_PORT       GPIOA
#define LD2_PIN             GPIO_PIN_5
#define B1_GPIO_PORT        GPIOC
#define B1_PIN              GPIO_PIN_13
#define B1_DEBOUNCE_MS      50U

static volatile uint32_t last_press_tick;
static volatile uint8_t  have_pressed;

static void GPIO_Init(void);
static void Error_Handler(void);

int main(void)
{
    if (HAL_Init() != HAL_OK) {
        Error_Handler();
    }

    /* The core keeps running from the 16 MHz HSI selected at reset. */
    GPIO_Init();

    while (1) {
        /* Nothing to do here; the button is handled in the interrupt. */
        HAL_Delay(100);
    }
}

static void GPIO_Init(void)
{
    GPIO_InitTypeDef init = {0};

    __HAL_RCC_GPIOA_CLK_ENABLE();
    __HAL_RCC_GPIOC_CLK_ENABLE();

    /* LD2 off before the pin becomes an output. */
    HAL_GPIO_WritePin(LD2_GPIO_PORT, LD2_PIN, GPIO_PIN_RESET);

    init.Pin = LD2_PIN;
    init.Mode = GPIO_MODE_OUTPUT_PP;
    init.Pull = GPIO_NOPULL;
    init.Speed = GPIO_SPEED_FREQ_LOW;
    HAL_GPIO_Init(LD2_GPIO_PORT, &init);

    /* B1: external pull-up, press = falling edge. */
    init.Pin = B1_PIN;
    init.Mode = GPIO_MODE_IT_FALLING;
    init.Pull = GPIO_NOPULL;
    init.Speed = GPIO_SPEED_FREQ_LOW;
    HAL_GPIO_Init(B1_GPIO_PORT, &init);

    HAL_NVIC_SetPriority(EXTI15_10_IRQn, 2, 0);
    HAL_NVIC_EnableIRQ(EXTI15_10_IRQn);
}

void HAL_GPIO_EXTI_Callback(uint16_t GPIO_Pin)
{
    if (GPIO_Pin == B1_PIN) {
        uint32_t now = HAL_GetTick();

        /* Ignore contact bounce: accept only a still-pressed button and
         * only once per debounce window. */
        if (HAL_GPIO_ReadPin(B1_GPIO_PORT, B1_PIN) == GPIO_PIN_RESET &&
            (!have_pressed || (now - last_press_tick) >= B1_DEBOUNCE_MS)) {
            have_pressed = 1U;
            last_press_tick = now;
            HAL_GPIO_TogglePin(LD2_GPIO_PORT, LD2_PIN);
        }
    }
}

void EXTI15_10_IRQHandler(void)
{
    HAL_GPIO_EXTI_IRQHandler(B1_PIN);
}

void SysTick_Handler(void)
{
    HAL_IncTick();
}

static void Error_Handler(void)
{
    __disable_irq();
    while (1) {
    }
}
