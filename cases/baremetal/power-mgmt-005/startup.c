/*
 * Startup for QEMU mps2-an385 (Cortex-M3): vector table and reset handler.
 * Reset_Handler copies .data to RAM, runs board_init() (board.c) and enters
 * newlib's _start (rdimon crt0), which clears .bss, sets up semihosting I/O,
 * calls main() and passes its return value to exit().
 *
 * The timer0 interrupt (IRQ 8) enters board_timer0_entry() (board.c), which
 * notes the time and calls the application's TIMER0_Handler(); timer1
 * (IRQ 9) belongs to the board. Every other interrupt goes to
 * Default_Handler.
 */
#include <stdint.h>

extern uint32_t _sidata, _sdata, _edata, _estack;
extern void _start(void);
extern void board_init(void);
extern void board_timer0_entry(void);
extern void board_timer1_entry(void);

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
	[16 + 0 ... 16 + 7] = Default_Handler,
	board_timer0_entry,	/*  8 timer0: board, then TIMER0_Handler */
	board_timer1_entry,	/*  9 timer1: board */
	[16 + 10 ... 16 + 31] = Default_Handler,
};

void Reset_Handler(void)
{
	uint32_t *src = &_sidata;
	uint32_t *dst = &_sdata;

	while (dst < &_edata) {
		*dst++ = *src++;
	}
	board_init();
	_start();
	for (;;) {
	}
}

void Default_Handler(void)
{
	for (;;) {
	}
}
