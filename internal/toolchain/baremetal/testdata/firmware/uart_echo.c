/* Reads a line from the CMSDK UART0 receiver and prints it upper-cased on
 * the same UART: a firmware whose output depends on the bytes a scenario
 * feeds to the console. */
#include <stdint.h>

#define UART0_DATA (*(volatile uint32_t *)0x40004000UL)
#define UART0_STATE (*(volatile uint32_t *)0x40004004UL)
#define UART0_CTRL (*(volatile uint32_t *)0x40004008UL)
#define UART0_BAUDDIV (*(volatile uint32_t *)0x40004010UL)

static void put(char c)
{
	while (UART0_STATE & 1U) {
	}
	UART0_DATA = (uint8_t)c;
}

static void puts_uart(const char *s)
{
	while (*s) {
		put(*s++);
	}
}

int main(void)
{
	char line[32];
	unsigned n = 0;
	UART0_BAUDDIV = 16;
	UART0_CTRL = 3U; /* TX and RX enable */
	puts_uart("ready\n");
	for (;;) {
		if (!(UART0_STATE & 2U)) {
			continue;
		}
		char c = (char)UART0_DATA;
		if (c == '\n' || n == sizeof line - 1) {
			line[n] = 0;
			puts_uart("got: ");
			puts_uart(line);
			put('\n');
			n = 0;
			continue;
		}
		line[n++] = (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
	}
}
