/* Stand-in for stm32f4xx_hal_rcc.h (tests only). */
#ifndef STM32F4XX_HAL_RCC_H
#define STM32F4XX_HAL_RCC_H
#include "stm32f4xx_hal_def.h"
#define __HAL_RCC_GPIOA_CLK_ENABLE() do { __IO uint32_t tmpreg; RCC->AHB1ENR |= RCC_AHB1ENR_GPIOAEN; tmpreg = RCC->AHB1ENR; UNUSED(tmpreg); } while (0U)
#define __HAL_RCC_USART2_CLK_ENABLE() do { __IO uint32_t tmpreg; RCC->APB1ENR |= RCC_APB1ENR_USART2EN; tmpreg = RCC->APB1ENR; UNUSED(tmpreg); } while (0U)
#endif
