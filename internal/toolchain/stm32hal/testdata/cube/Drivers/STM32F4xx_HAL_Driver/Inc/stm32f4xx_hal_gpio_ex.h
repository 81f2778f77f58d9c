/* Stand-in for stm32f4xx_hal_gpio_ex.h (tests only). */
#ifndef STM32F4XX_HAL_GPIO_EX_H
#define STM32F4XX_HAL_GPIO_EX_H
#define GPIO_AF7_USART2 ((uint8_t)0x07)
#endif
