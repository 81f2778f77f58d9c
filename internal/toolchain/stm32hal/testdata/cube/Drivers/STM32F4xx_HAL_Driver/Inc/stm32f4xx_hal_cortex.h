/* Stand-in for stm32f4xx_hal_cortex.h (tests only). */
#ifndef STM32F4XX_HAL_CORTEX_H
#define STM32F4XX_HAL_CORTEX_H
#include "stm32f4xx_hal_def.h"
#endif
