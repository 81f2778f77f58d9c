/*
 * Startup for QEMU mps2-an385 (Cortex-M3): vector table and reset handler.
 * Reset_Handler copies .data to RAM and enters newlib's _start (rdimon
 * crt0), which clears .bss, sets up semihosting I/O, calls main() and
 * passes its return value to exit().
 *
 * SysTick enters the bench's SysTick_Handler() (harness.c); every other
 * exception goes to Default_Handler.
 */
#include <stdint.h>

extern uint32_t _sidata, _sdata, _edata, _estack;
extern void _start(void);
extern void SysTick_Handler(void);

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
	SysTick_Handler,	/* the bench */
	/* external interrupts 0..31 */
	[16 + 0 ... 16 + 31] = Default_Handler,
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

/* A fault or a stray interrupt: say so and end the run. */
void Default_Handler(void)
{
	static const char msg[] = "FAULT\n";
	{
		register int o __asm__("r0") = 0x04;    /* SYS_WRITE0 */
		register const char *a __asm__("r1") = msg;
		__asm__ volatile("bkpt 0xab" : "+r"(o) : "r"(a) : "memory");
	}
	{
		register int o __asm__("r0") = 0x18;    /* SYS_EXIT */
		register int a __asm__("r1") = 0x20024; /* ADP_Stopped_RunTimeErrorUnknown */
		__asm__ volatile("bkpt 0xab" : "+r"(o) : "r"(a) : "memory");
	}
	for (;;) {
	}
}
