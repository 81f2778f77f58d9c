/*
 * Startup for QEMU mps2-an385 (Cortex-M3): vector table and reset handler.
 * Reset_Handler copies .data to RAM and enters newlib's _start (rdimon
 * crt0), which clears .bss, sets up semihosting I/O, runs constructors,
 * calls main() and passes its return value to exit().
 *
 * The test bench (harness.c) defines TIMER0_Handler, the handler of CMSDK
 * APB timer0 (external interrupt 8 of the AN385 interrupt map); every other
 * external interrupt goes to Default_Handler.
 */
#include <stdint.h>

extern uint32_t _sidata, _sdata, _edata, _estack;
extern void _start(void);

void Reset_Handler(void);
void Default_Handler(void);

void NMI_Handler(void) __attribute__((weak, alias("Default_Handler")));
void HardFault_Handler(void) __attribute__((weak, alias("Default_Handler")));
void MemManage_Handler(void) __attribute__((weak, alias("Default_Handler")));
void BusFault_Handler(void) __attribute__((weak, alias("Default_Handler")));
void UsageFault_Handler(void) __attribute__((weak, alias("Default_Handler")));
void SVC_Handler(void) __attribute__((weak, alias("Default_Handler")));
void DebugMon_Handler(void) __attribute__((weak, alias("Default_Handler")));
void PendSV_Handler(void) __attribute__((weak, alias("Default_Handler")));
void SysTick_Handler(void) __attribute__((weak, alias("Default_Handler")));
void TIMER0_Handler(void) __attribute__((weak, alias("Default_Handler")));

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
	SVC_Handler,
	DebugMon_Handler,
	0,
	PendSV_Handler,
	SysTick_Handler,
	/* external interrupts 0..31 */
	Default_Handler,	/*  0 UART0 RX */
	Default_Handler,	/*  1 UART0 TX */
	Default_Handler,	/*  2 UART1 RX */
	Default_Handler,	/*  3 UART1 TX */
	Default_Handler,	/*  4 UART2 RX */
	Default_Handler,	/*  5 UART2 TX */
	Default_Handler,	/*  6 GPIO0 combined */
	Default_Handler,	/*  7 GPIO1 combined */
	TIMER0_Handler,		/*  8 timer0 */
	Default_Handler,	/*  9 timer1 */
	Default_Handler,	/* 10 dual timer */
	Default_Handler,	/* 11 */
	Default_Handler,	/* 12 UART overflow */
	Default_Handler,	/* 13 Ethernet */
	[16 + 14 ... 16 + 31] = Default_Handler,
};

void Reset_Handler(void)
{
	uint32_t *src = &_sidata;
	uint32_t *dst = &_sdata;

	while (dst < &_edata) {
		*dst++ = *src++;
	}
	_start();
	for (;;) {
	}
}

void Default_Handler(void)
{
	for (;;) {
	}
}
