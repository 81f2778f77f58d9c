/*
 * Startup for QEMU mps2-an385 (Cortex-M3): vector table and reset handler.
 * Reset_Handler copies .data to RAM and enters newlib's _start (rdimon
 * crt0), which clears .bss, sets up semihosting I/O, runs constructors,
 * calls main() and passes its return value to exit().
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
	/* external interrupts 0..31: unused by this application */
	[16 ... 16 + 31] = Default_Handler,
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
