/*
 * Hidden test bench for pwm-006 (not shown to the model).
 *
 * Reads one request per line from UART0: "<freq_hz> <duty_permille>"
 * (unsigned decimals), or "end". For each it calls pwm_calc() on a
 * register block filled with a marker and prints
 *   "pwm F D: ok psc P period N compare C"         (returned 0)
 *   "pwm F D: ret R, regs untouched"                (error, block intact)
 *   "pwm F D: ret R, regs written psc P period N compare C"  (error, block changed)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pwm_calc.h"

#define UART0_DATA   (*(volatile uint32_t *)0x40004000UL)
#define UART0_STATE  (*(volatile uint32_t *)0x40004004UL)
#define UART0_CTRL   (*(volatile uint32_t *)0x40004008UL)
#define UART0_BAUD   (*(volatile uint32_t *)0x40004010UL)

#define MARK 0xA5A5A5A5u

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

	for (;;) {
		read_line(line, sizeof line);
		if (strcmp(line, "end") == 0) {
			break;
		}
		if (line[0] == '\0') {
			continue;
		}
		char *rest;
		unsigned long f = strtoul(line, &rest, 10);
		unsigned long d = strtoul(rest, NULL, 10);
		pwm_regs_t regs = { MARK, MARK, MARK };
		int ret = pwm_calc((uint32_t)f, (uint32_t)d, &regs);
		if (ret == 0) {
			printf("pwm %lu %lu: ok psc %lu period %lu compare %lu\n", f, d,
			       (unsigned long)regs.prescaler, (unsigned long)regs.period,
			       (unsigned long)regs.compare);
		} else if (regs.prescaler == MARK && regs.period == MARK && regs.compare == MARK) {
			printf("pwm %lu %lu: ret %d, regs untouched\n", f, d, ret);
		} else {
			printf("pwm %lu %lu: ret %d, regs written psc %lu period %lu compare %lu\n", f, d, ret,
			       (unsigned long)regs.prescaler, (unsigned long)regs.period,
			       (unsigned long)regs.compare);
		}
	}
	printf("end\n");
	exit(0);
}
