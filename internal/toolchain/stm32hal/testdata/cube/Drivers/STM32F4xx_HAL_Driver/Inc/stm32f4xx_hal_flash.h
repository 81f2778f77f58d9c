/* Stand-in for stm32f4xx_hal_flash.h (tests only). */
#ifndef STM32F4XX_HAL_FLASH_H
#define STM32F4XX_HAL_FLASH_H
#include "stm32f4xx_hal_def.h"
#endif
