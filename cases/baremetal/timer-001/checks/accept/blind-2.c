#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    volatile uint32_t CTRL;   /* 0xE000E010 SYST_CSR */
    volatile uint32_t LOAD;   /* 0xE000E014 SYST_RVR */
    volatile uint32_t VAL;    /* 0xE000E018 SYST_CVR */
    volatile uint32_t CALIB;  /* 0xE000E01C SYST_CALIB */
} systick_regs_t;

#define SYSTICK  ((systick_regs_t *)0xE000E010u)

/* System Handler Priority Register 3: SysTick priority in bits [31:24] */
#define SCB_SHPR3  (*(volatile uint32_t *)0xE000ED20u)

enum {
    CTRL_ENABLE    = 1u << 0,
    CTRL_TICKINT   = 1u << 1,
    CTRL_CLKSOURCE = 1u << 2,
};

#define CPU_HZ            25000000ul
#define CYCLES_PER_MS     (CPU_HZ / 1000ul)

volatile uint32_t systick_ms = 0;

void SysTick_Handler(void)
{
    systick_ms = systick_ms + 1u;
}

void delay_ms(uint32_t ms)
{
    const uint32_t start = systick_ms;

    for (;;) {
        uint32_t now = systick_ms;
        if ((uint32_t)(now - start) >= ms) {
            break;
        }
        __asm volatile ("nop");
    }
}

int main(void)
{
    SYSTICK->CTRL = 0;
    SYSTICK->LOAD = (uint32_t)(CYCLES_PER_MS - 1ul);
    SYSTICK->VAL  = 0;
    SCB_SHPR3 = (SCB_SHPR3 & 0x00FFFFFFu) | (0xE0u << 24);  /* low-ish priority */
    SYSTICK->CTRL = CTRL_CLKSOURCE | CTRL_TICKINT | CTRL_ENABLE;

    {
        uint32_t first = systick_ms;
        do {
        } while (systick_ms == first);
    }
    puts("tick ok");

    uint32_t before = systick_ms;
    delay_ms(100);
    uint32_t after = systick_ms;

    printf("elapsed %u ms\n", (unsigned int)(after - before));
    fflush(stdout);

    exit(0);
    return 0;
}
