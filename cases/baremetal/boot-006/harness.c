/*
 * Hidden test bench for boot-006 (not shown to the model).
 *
 * Reads one vector table per line from UART0: "<sp> <reset>" (hex or
 * decimal, strtoul base 0), or "end". It places the two words at the start
 * of an aligned table, calls boot_image_check() and prints
 *   "check 0xSSSSSSSS 0xRRRRRRRR: <code>"
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "boot_check.h"

#define UART0_DATA   (*(volatile uint32_t *)0x40004000UL)
#define UART0_STATE  (*(volatile uint32_t *)0x40004004UL)
#define UART0_CTRL   (*(volatile uint32_t *)0x40004008UL)
#define UART0_BAUD   (*(volatile uint32_t *)0x40004010UL)

static uint32_t table[48] __attribute__((aligned(256)));

static int uart_getc(void)
{
	while ((UART0_STATE & 2u) == 0u) {
	}
	return (int)(UART0_DATA & 0xFFu);
}

static void read_line(char *buf, unsigned size)
{
	unsigned n = 0;
	int c;

	for (;;) {
		c = uart_getc();
		if (c == '\n') {
			break;
		}
		if (c == '\r') {
			continue;
		}
		if (n + 1u < size) {
			buf[n++] = (char)c;
		}
	}
	buf[n] = '\0';
}

int main(void)
{
	char line[64];

	UART0_BAUD = 16;
	UART0_CTRL = 3u;
	/* Keep QEMU's main loop delivering console input while we poll:
	 * dual timer 2, 100 us periodic, interrupt off. */
	*(volatile uint32_t *)0x40002020u = 2500u;	/* Timer2Load */
	*(volatile uint32_t *)0x40002028u = 0xC2u;	/* enable, periodic, 32-bit */

	for (unsigned i = 0; i < sizeof table / sizeof table[0]; i++) {
		table[i] = 0x00008101u;		/* plausible handlers after the first two words */
	}
	for (;;) {
		read_line(line, sizeof line);
		if (strcmp(line, "end") == 0) {
			break;
		}
		if (line[0] == '\0') {
			continue;
		}
		char *rest;
		uint32_t sp = (uint32_t)strtoul(line, &rest, 0);
		uint32_t reset = (uint32_t)strtoul(rest, NULL, 0);
		table[0] = sp;
		table[1] = reset;
		int code = boot_image_check(table);
		printf("check 0x%08lX 0x%08lX: %d\n", (unsigned long)sp, (unsigned long)reset, code);
	}
	printf("end\n");
	exit(0);
}
