/* Stand-in for stm32f4xx_hal.h (tests only). */
#ifndef STM32F4XX_HAL_H
#define STM32F4XX_HAL_H
#include "stm32f4xx_hal_conf.h"
HAL_StatusTypeDef HAL_Init(void);
void HAL_IncTick(void);
uint32_t HAL_GetTick(void);
void HAL_Delay(uint32_t Delay);
#endif
