/* Stand-in for CMSIS stm32f401xe.h (tests only). */
#ifndef STM32F401XE_H
#define STM32F401XE_H
#include "core_cm4.h"
typedef struct {
	__IO uint32_t SR, DR, BRR, CR1, CR2, CR3, GTPR;
} USART_TypeDef;
typedef struct {
	__IO uint32_t MODER, OTYPER, OSPEEDR, PUPDR, IDR, ODR, BSRR, LCKR, AFR[2];
} GPIO_TypeDef;
typedef struct {
	__IO uint32_t CR, PLLCFGR, CFGR, CIR, AHB1RSTR, AHB2RSTR, RESERVED0[2], APB1RSTR, APB2RSTR, RESERVED1[2];
	__IO uint32_t AHB1ENR, AHB2ENR, RESERVED2[2], APB1ENR, APB2ENR;
} RCC_TypeDef;
#define PERIPH_BASE 0x40000000UL
#define USART2 ((USART_TypeDef *)(PERIPH_BASE + 0x4400UL))
#define GPIOA ((GPIO_TypeDef *)(PERIPH_BASE + 0x20000UL))
#define RCC ((RCC_TypeDef *)(PERIPH_BASE + 0x23800UL))
#define RCC_AHB1ENR_GPIOAEN (1UL << 0)
#define RCC_APB1ENR_USART2EN (1UL << 17)
#endif
