/*
 * Startup for QEMU mps2-an385 (Cortex-M3): vector table and reset handler.
 * Reset_Handler copies .data to RAM, clears .bss, sets up semihosting I/O
 * and calls main() on the main stack the vector table gives (top of SRAM,
 * 0x20400000). It does not enter rdimon's crt0 _start, which would move the
 * stack to where the host's SYS_HEAPINFO says (outside the SRAM window).
 *
 * The test bench (harness.c) defines TIMER0_Handler (timer0, external
 * interrupt 8) and HardFault_Handler; the answer defines MemManage_Handler.
 */
#include <stdint.h>

#include <stdlib.h>

extern uint32_t _sidata, _sdata, _edata, _estack, __bss_start__, __bss_end__;
extern void initialise_monitor_handles(void);
extern int main(void);

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
	for (dst = &__bss_start__; dst < &__bss_end__;) {
		*dst++ = 0u;
	}
	initialise_monitor_handles();
	exit(main());
	for (;;) {
	}
}

void Default_Handler(void)
{
	for (;;) {
	}
}
