/* Stand-in for CMSIS stm32f4xx.h (tests only). */
#ifndef STM32F4XX_H
#define STM32F4XX_H
#if defined(STM32F401xE)
#include "stm32f401xe.h"
#else
#error "Please select first the target STM32F4xx device used in your application (in stm32f4xx.h file)"
#endif
#endif
