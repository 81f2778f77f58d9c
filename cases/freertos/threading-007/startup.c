/*
 * Startup for FreeRTOS on QEMU mps2-an385 (Cortex-M3): vector table with the
 * FreeRTOS port handlers installed directly, and a reset handler that
 * initialises .data/.bss and calls main().
 */
#include <stdint.h>

extern uint32_t _sidata, _sdata, _edata, __bss_start__, __bss_end__, _estack;
extern int main(void);

extern void vPortSVCHandler(void);
extern void xPortPendSVHandler(void);
extern void xPortSysTickHandler(void);

void Reset_Handler(void);
void Default_Handler(void);

void NMI_Handler(void) __attribute__((weak, alias("Default_Handler")));
void HardFault_Handler(void) __attribute__((weak, alias("Default_Handler")));
void MemManage_Handler(void) __attribute__((weak, alias("Default_Handler")));
void BusFault_Handler(void) __attribute__((weak, alias("Default_Handler")));
void UsageFault_Handler(void) __attribute__((weak, alias("Default_Handler")));
void DebugMon_Handler(void) __attribute__((weak, alias("Default_Handler")));

/* IRQ 0 is the UART0 receive interrupt on mps2-an385. */
void UART0RX_IRQHandler(void) __attribute__((weak, alias("Default_Handler")));

__attribute__((section(".isr_vector"), used))
void (*const vector_table[16 + 32])(void) = {
	(void (*)(void))&_estack,
	Reset_Handler,
	NMI_Handler,
	HardFault_Handler,
	MemManage_Handler,
	BusFault_Handler,
	UsageFault_Handler,
	0, 0, 0, 0,
	vPortSVCHandler,
	DebugMon_Handler,
	0,
	xPortPendSVHandler,
	xPortSysTickHandler,
	UART0RX_IRQHandler,
	[16 + 1 ... 16 + 31] = Default_Handler,
};

void Reset_Handler(void)
{
	uint32_t *src = &_sidata;
	uint32_t *dst = &_sdata;

	while (dst < &_edata) {
		*dst++ = *src++;
	}
	for (dst = &__bss_start__; dst < &__bss_end__; dst++) {
		*dst = 0;
	}
	main();
	for (;;) {
	}
}

void Default_Handler(void)
{
	for (;;) {
	}
}
