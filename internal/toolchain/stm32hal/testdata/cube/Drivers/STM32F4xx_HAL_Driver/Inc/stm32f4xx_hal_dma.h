/* Stand-in for stm32f4xx_hal_dma.h (tests only). */
#ifndef STM32F4XX_HAL_DMA_H
#define STM32F4XX_HAL_DMA_H
#include "stm32f4xx_hal_def.h"
#endif
