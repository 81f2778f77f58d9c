/* UART0 driver using an indexed register window instead of a struct. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define UART0_REG ((volatile uint32_t *)0x40004000u)

enum uart_reg_index {
	UART_DATA_IDX    = 0,
	UART_STATE_IDX   = 1,
	UART_CTRL_IDX    = 2,
	UART_INT_IDX     = 3,
	UART_BAUDDIV_IDX = 4,
};

#define TX_BUF_FULL  0x01u
#define TX_ENABLE    0x01u
#define PERIPH_CLOCK 25000000u

static void emit_raw(uint8_t byte);

void uart0_puts(const char *s)
{
	for (size_t i = 0; s[i] != '\0'; ++i) {
		switch (s[i]) {
		case '\n':
			emit_raw('\r');
			emit_raw('\n');
			break;
		default:
			uart0_putc(s[i]);
			break;
		}
	}
}

void uart0_init(uint32_t baud)
{
	UART0_REG[UART_CTRL_IDX] = 0u;
	UART0_REG[UART_BAUDDIV_IDX] = (PERIPH_CLOCK + baud / 2u) / baud;
	UART0_REG[UART_CTRL_IDX] = TX_ENABLE;
}

void uart0_putc(char c)
{
	emit_raw((uint8_t)c);
}

static void emit_raw(uint8_t byte)
{
	while ((UART0_REG[UART_STATE_IDX] & TX_BUF_FULL) != 0u)
		;
	UART0_REG[UART_DATA_IDX] = byte;
}

int main(void)
{
	uart0_init(115200u);
	uart0_puts("uart0 ready\nline 1 of 2\nline 2 of 2\n");
	exit(EXIT_SUCCESS);
}
