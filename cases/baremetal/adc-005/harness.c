/*
 * Hidden test bench for adc-005 (not shown to the model).
 *
 * Reads whitespace-separated tokens from UART0 until "end": a decimal
 * integer (optionally signed) is a raw reading, "r" resets the average.
 * For each reading it prints the conversion and, for a valid one, the
 * average after pushing it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "adc_cond.h"

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

static int next_token(char *tok, unsigned size)
{
	unsigned n = 0;
	int c;
	do {
		c = uart_getc();
	} while (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == ',');
	while (c != ' ' && c != '\n' && c != '\r' && c != '\t' && c != ',') {
		if (n + 1u < size) {
			tok[n++] = (char)c;
		}
		c = uart_getc();
	}
	tok[n] = '\0';
	return (int)n;
}

int main(void)
{
	char tok[24];

	UART0_BAUD = 16;
	UART0_CTRL = 3u;
	/* QEMU hands console input over from its main loop, which a busy
	 * polling loop alone may leave asleep: the periodic dual-timer 2
	 * (100 us, interrupt off) keeps virtual-timer events coming, so the
	 * input never stalls on a loaded host. */
	*(volatile unsigned int *)0x40002020u = 2500u;	/* Timer2Load */
	*(volatile unsigned int *)0x40002028u = 0xC2u;	/* enable, periodic, 32-bit */
	adc_avg_reset();
	for (;;) {
		next_token(tok, sizeof tok);
		if (strcmp(tok, "end") == 0) {
			break;
		}
		if (strcmp(tok, "r") == 0) {
			adc_avg_reset();
			printf("reset, ready %s\n", adc_avg_ready() ? "yes" : "no");
			continue;
		}
		int32_t raw = (int32_t)strtol(tok, NULL, 10);
		int32_t mv = adc_to_millivolts(raw);
		if (mv == -1) {
			printf("raw %ld: invalid\n", (long)raw);
			continue;
		}
		int32_t avg = adc_avg_push(mv);
		printf("raw %ld: %ld mV, avg %ld mV%s\n", (long)raw, (long)mv, (long)avg,
		       adc_avg_ready() ? "" : " (warm-up)");
	}
	printf("end\n");
	exit(0);
}
