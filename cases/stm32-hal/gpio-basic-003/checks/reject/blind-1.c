/* defect: PC13 is configured for a rising-edge interrupt, so LD2 toggles when B1 is released instead of when it is pressed.
 * breaks: "Each press of B1 toggles LD2 exactly once, reacting to the press (not the release)."
 * must_fail: button_interrupt_on_press_edge
 */
#include "stm32f4xx_hal.h"

/*
 * B1 (PC13) -> EXTI line 13.
 * On a press the callback toggles LD2 and masks EXTI line 13; the main loop
 * unmasks it again once the button has been released and stable for a
 * while, so contact bounce on press or release cannot cause extra toggles.
 */
#define BUTTON_STABLE_MS   30U

static volatile uint8_t button_locked;
static volatile uint32_t last_low_tick;

void SysTick_Handler(void)
{
    HAL_IncTick();
}

void EXTI15_10_IRQHandler(void)
{
    HAL_GPIO_EXTI_IRQHandler(GPIO_PIN_13);
}

void HAL_GPIO_EXTI_Callback(uint16_t GPIO_Pin)
{
    if (GPIO_Pin != GPIO_PIN_13) {
        return;
    }

    HAL_GPIO_TogglePin(GPIOA, GPIO_PIN_5);

    EXTI->IMR &= ~EXTI_IMR_MR13;
    last_low_tick = HAL_GetTick();
    button_locked = 1U;
}

int main(void)
{
    GPIO_InitTypeDef gpio = {0};

    HAL_Init();

    __HAL_RCC_GPIOA_CLK_ENABLE();
    __HAL_RCC_GPIOC_CLK_ENABLE();

    HAL_GPIO_WritePin(GPIOA, GPIO_PIN_5, GPIO_PIN_RESET);
    gpio.Pin = GPIO_PIN_5;
    gpio.Mode = GPIO_MODE_OUTPUT_PP;
    gpio.Pull = GPIO_NOPULL;
    gpio.Speed = GPIO_SPEED_FREQ_LOW;
    HAL_GPIO_Init(GPIOA, &gpio);

    gpio.Pin = GPIO_PIN_13;
    gpio.Mode = GPIO_MODE_IT_RISING;
    gpio.Pull = GPIO_NOPULL;
    HAL_GPIO_Init(GPIOC, &gpio);

    __HAL_GPIO_EXTI_CLEAR_IT(GPIO_PIN_13);
    HAL_NVIC_SetPriority(EXTI15_10_IRQn, 3, 0);
    HAL_NVIC_EnableIRQ(EXTI15_10_IRQn);

    for (;;) {
        if (button_locked) {
            uint32_t now = HAL_GetTick();

            if (HAL_GPIO_ReadPin(GPIOC, GPIO_PIN_13) == GPIO_PIN_RESET) {
                last_low_tick = now;
            } else if ((now - last_low_tick) >= BUTTON_STABLE_MS) {
                /* Released and stable: drop any bounce edges, re-arm. */
                __HAL_GPIO_EXTI_CLEAR_IT(GPIO_PIN_13);
                button_locked = 0U;
                EXTI->IMR |= EXTI_IMR_MR13;
            }
        }

        HAL_PWR_EnterSLEEPMode(PWR_MAINREGULATOR_ON, PWR_SLEEPENTRY_WFI);
    }
}
