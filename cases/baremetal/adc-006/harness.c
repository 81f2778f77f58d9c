/*
 * Hidden test bench for adc-006 (not shown to the model).
 *
 * Reads one command per line from UART0:
 *   conv <raw>   prints "conv <raw>: pin <P> mV, source <S> mV"
 *   init         calls vmon_avg_init(), prints "init"
 *   add <raw>    prints "add <raw>: avg <A> mV"
 *   end          prints "end" and exits
 * Raw values are parsed as unsigned decimals and passed as uint16_t (the
 * scripts only use 0..65535).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vmon.h"

#define UART0_DATA   (*(volatile uint32_t *)0x40004000UL)
#define UART0_STATE  (*(volatile uint32_t *)0x40004004UL)
#define UART0_CTRL   (*(volatile uint32_t *)0x40004008UL)
#define UART0_BAUD   (*(volatile uint32_t *)0x40004010UL)

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
	char line[48];

	UART0_BAUD = 16;
	UART0_CTRL = 3u;
	/* Keep QEMU's main loop delivering console input while we poll:
	 * dual timer 2, 100 us periodic, interrupt off. */
	*(volatile uint32_t *)0x40002020u = 2500u;	/* Timer2Load */
	*(volatile uint32_t *)0x40002028u = 0xC2u;	/* enable, periodic, 32-bit */

	vmon_avg_init();
	for (;;) {
		read_line(line, sizeof line);
		if (strcmp(line, "end") == 0) {
			break;
		}
		if (strcmp(line, "init") == 0) {
			vmon_avg_init();
			printf("init\n");
			continue;
		}
		if (strncmp(line, "conv ", 5) == 0) {
			unsigned long v = strtoul(line + 5, NULL, 10);
			uint16_t raw = (uint16_t)v;
			int32_t pin = vmon_pin_mv(raw);
			int32_t src = vmon_source_mv(raw);
			printf("conv %lu: pin %ld mV, source %ld mV\n", v, (long)pin, (long)src);
			continue;
		}
		if (strncmp(line, "add ", 4) == 0) {
			unsigned long v = strtoul(line + 4, NULL, 10);
			int32_t avg = vmon_avg_add((uint16_t)v);
			printf("add %lu: avg %ld mV\n", v, (long)avg);
			continue;
		}
		if (line[0] != '\0') {
			printf("? %s\n", line);
		}
	}
	printf("end\n");
	exit(0);
}
