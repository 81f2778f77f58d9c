/*
 * Test firmware for the freertos backend's L2 on QEMU mps2-an385, built
 * here with arm-none-eabi-gcc and no FreeRTOS (the kernel is only in the
 * freertos image): it prints what the bundled case's task prints on UART0
 * and then idles forever, like a scheduler with nothing to do. Built with
 * -DFAULT it writes to an unmapped address first, and its HardFault handler
 * says so on the UART.
 */
#include <stdint.h>

#define UART0_DATA    (*(volatile uint32_t *)0x40004000UL)
#define UART0_STATE   (*(volatile uint32_t *)0x40004004UL)
#define UART0_CTRL    (*(volatile uint32_t *)0x40004008UL)
#define UART0_BAUDDIV (*(volatile uint32_t *)0x40004010UL)

extern uint32_t _estack;

static void uart_puts(const char *s)
{
	for (; *s; s++) {
		while (UART0_STATE & 1U) {
		}
		UART0_DATA = (uint8_t)*s;
	}
}

void HardFault_Handler(void)
{
	uart_puts("HardFault\r\n");
	for (;;) {
	}
}

void Reset_Handler(void)
{
	UART0_BAUDDIV = 16U;
	UART0_CTRL = 1U;
	uart_puts("uart echo ready\r\n");
#ifdef FAULT
	*(volatile uint32_t *)0xF0000000UL = 1U;
#endif
	for (;;) {
		__asm volatile("wfi");
	}
}

__attribute__((section(".isr_vector"), used))
void (*const vector_table[16])(void) = {
	(void (*)(void))&_estack,
	Reset_Handler,
	HardFault_Handler,
	HardFault_Handler,
};
