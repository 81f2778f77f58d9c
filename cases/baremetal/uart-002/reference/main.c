#include <stdint.h>
#include <stdlib.h>

#define PCLK_HZ 25000000U

typedef struct {
	volatile uint32_t DATA;
	volatile uint32_t STATE;
	volatile uint32_t CTRL;
	volatile uint32_t INTSTATUS;
	volatile uint32_t BAUDDIV;
} cmsdk_uart_t;

#define UART0 ((cmsdk_uart_t *)0x40004000UL)

#define UART_STATE_TXFULL (1U << 0)
#define UART_CTRL_TXEN    (1U << 0)

void uart0_init(uint32_t baud)
{
	UART0->CTRL = 0;
	UART0->BAUDDIV = PCLK_HZ / baud;
	UART0->CTRL = UART_CTRL_TXEN;
}

void uart0_putc(char c)
{
	while (UART0->STATE & UART_STATE_TXFULL) {
	}
	UART0->DATA = (uint8_t)c;
}

void uart0_puts(const char *s)
{
	while (*s != '\0') {
		if (*s == '\n') {
			uart0_putc('\r');
		}
		uart0_putc(*s++);
	}
}

int main(void)
{
	uart0_init(115200U);
	uart0_puts("uart0 ready\n");
	uart0_puts("line 1 of 2\n");
	uart0_puts("line 2 of 2\n");
	exit(0);
}
