/* Stand-in for CMSIS core_cm4.h (tests only). */
#ifndef CORE_CM4_H
#define CORE_CM4_H
#include <stdint.h>
#if !defined(__ARM_ARCH_7EM__)
#error "core_cm4.h: compile for a Cortex-M4 (-mcpu=cortex-m4)"
#endif
#if !defined(__ARM_PCS_VFP)
#error "core_cm4.h: the board uses the hard-float ABI (-mfloat-abi=hard)"
#endif
#define __IO volatile
#define __I volatile const
#define __STATIC_FORCEINLINE __attribute__((always_inline)) static inline
__STATIC_FORCEINLINE void __disable_irq(void) { __asm volatile("cpsid i" : : : "memory"); }
__STATIC_FORCEINLINE void __enable_irq(void) { __asm volatile("cpsie i" : : : "memory"); }
#endif
