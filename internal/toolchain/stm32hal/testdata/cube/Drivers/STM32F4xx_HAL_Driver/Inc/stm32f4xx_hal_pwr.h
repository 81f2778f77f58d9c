/* Stand-in for stm32f4xx_hal_pwr.h (tests only). */
#ifndef STM32F4XX_HAL_PWR_H
#define STM32F4XX_HAL_PWR_H
#include "stm32f4xx_hal_def.h"
#endif
