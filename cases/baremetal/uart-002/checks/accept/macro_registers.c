#include <stdint.h>
#include <stdlib.h>

#define UART0_BASE     0x40004000u
#define UART0_DATA     (*(volatile uint32_t *)(UART0_BASE + 0x000u))
#define UART0_STATE    (*(volatile const uint32_t *)(UART0_BASE + 0x004u))
#define UART0_CTRL     (*(volatile uint32_t *)(UART0_BASE + 0x008u))
#define UART0_BAUDDIV  (*(volatile uint32_t *)(UART0_BASE + 0x010u))

void uart0_init(uint32_t baud)
{
	UART0_BAUDDIV = 25000000u / baud;
	UART0_CTRL |= 0x1u;
}

void uart0_putc(char c)
{
	do {
	} while ((UART0_STATE & 0x1u) != 0u);
	UART0_DATA = (uint32_t)(unsigned char)c;
}

void uart0_puts(const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			uart0_putc('\r');
		uart0_putc(*s);
	}
}

int main(void)
{
	static const char *const lines[] = { "uart0 ready\n", "line 1 of 2\n", "line 2 of 2\n" };

	uart0_init(115200u);
	for (unsigned i = 0; i < sizeof lines / sizeof lines[0]; i++)
		uart0_puts(lines[i]);
	return EXIT_SUCCESS;
}
