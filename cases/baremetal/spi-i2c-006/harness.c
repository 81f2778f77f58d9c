/*
 * Hidden test bench for spi-i2c-006 (not shown to the model).
 *
 * Provides gpio_write()/gpio_read() and a simulated SPI mode-0 slave on
 * them: on CS falling the slave starts a new command (reply index 0) and
 * drives the MSB of its first reply byte on MISO; on each SCK rising edge
 * while CS is low it samples MOSI; after each SCK falling edge it drives
 * the next bit (after the 8th, the MSB of the next reply byte; 0xFF past
 * the end of the reply). MISO reads 1 while CS is high.
 *
 * Script lines on UART0:
 *   x <hex bytes> [/ <reply hex bytes>]   transfer with an rx buffer
 *   w <hex bytes> [/ <reply hex bytes>]   transfer with rx = NULL
 *   z                                     transfer of 0 bytes
 *   p <count>                             pattern transfer of <count> bytes
 *   end                                   exit(0)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "soft_spi.h"

#define UART0_DATA   (*(volatile uint32_t *)0x40004000UL)
#define UART0_STATE  (*(volatile uint32_t *)0x40004004UL)
#define UART0_CTRL   (*(volatile uint32_t *)0x40004008UL)
#define UART0_BAUD   (*(volatile uint32_t *)0x40004010UL)

#define MAXB 512u

static int lvl[8];
static const uint8_t *reply;
static size_t reply_len;
static size_t reply_idx;
static uint8_t out_byte;
static unsigned out_bit;      /* bits of the current byte clocked so far */
static uint8_t in_shift;
static unsigned in_bits;
static uint8_t slave_rx[MAXB + 16];
static size_t slave_n;
static unsigned frames, rises, changes, sck_at_cs_high, foreign;

static void load_reply(void)
{
	out_byte = reply_idx < reply_len ? reply[reply_idx] : 0xFFu;
	out_bit = 0;
}

void gpio_write(unsigned pin, int level)
{
	int v = level != 0;
	if (pin != PIN_SCK && pin != PIN_MOSI && pin != PIN_CS) {
		foreign++;
		return;
	}
	if (lvl[pin] == v) {
		return;
	}
	lvl[pin] = v;
	changes++;
	if (pin == PIN_CS) {
		if (lvl[PIN_SCK]) {
			sck_at_cs_high++;
		}
		if (!v) {
			frames++;
			reply_idx = 0;
			in_bits = 0;
			in_shift = 0;
			load_reply();
		}
		return;
	}
	if (pin == PIN_SCK && !lvl[PIN_CS]) {
		if (v) {
			rises++;
			in_shift = (uint8_t)((in_shift << 1) | (lvl[PIN_MOSI] ? 1u : 0u));
			if (++in_bits == 8u) {
				if (slave_n < sizeof slave_rx) {
					slave_rx[slave_n++] = in_shift;
				}
				in_bits = 0;
				in_shift = 0;
			}
		} else {
			if (++out_bit == 8u) {
				reply_idx++;
				load_reply();
			}
		}
	}
}

int gpio_read(unsigned pin)
{
	if (pin == PIN_MISO) {
		if (lvl[PIN_CS]) {
			return 1;
		}
		return (out_byte >> (7u - out_bit)) & 1u;
	}
	if (pin < 8u) {
		return lvl[pin];
	}
	return 0;
}

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
		if (c == '\n' || c == '\r') {
			if (n == 0u) {
				continue;
			}
			break;
		}
		if (n + 1u < size) {
			buf[n++] = (char)c;
		}
	}
	buf[n] = '\0';
}

static size_t parse_hex(const char **pp, uint8_t *out, size_t max)
{
	const char *p = *pp;
	size_t n = 0;
	for (;;) {
		while (*p == ' ') {
			p++;
		}
		if (*p == '\0' || *p == '/') {
			break;
		}
		char *end;
		unsigned long v = strtoul(p, &end, 16);
		if (end == p) {
			break;
		}
		if (n < max) {
			out[n++] = (uint8_t)v;
		}
		p = end;
	}
	*pp = p;
	return n;
}

static void reset_counters(void)
{
	frames = rises = changes = sck_at_cs_high = foreign = 0;
	slave_n = 0;
	in_bits = 0;
	in_shift = 0;
}

static void print_bytes(const char *label, const uint8_t *b, size_t n)
{
	printf("%s:", label);
	for (size_t i = 0; i < n; i++) {
		printf(" %02X", b[i]);
	}
	printf("\n");
}

static void print_bus(void)
{
	printf("cs frames: %u\n", frames);
	printf("sck rising edges: %u\n", rises);
	printf("after: cs %d sck %d\n", lvl[PIN_CS], lvl[PIN_SCK]);
	printf("sck at cs edges: %s\n", sck_at_cs_high ? "high" : "low");
	if (foreign) {
		printf("writes to other pins: %u\n", foreign);
	}
}

static uint8_t txb[MAXB], rpl[MAXB], rxb[MAXB + 8];
static uint8_t low_mem[MAXB + 8];
/* address 0 is RAM on this board (the vector table): a store through a
 * NULL rx does not fault, so compare the first bytes around the call */
static volatile uintptr_t zero_addr;

int main(void)
{
	char line[1600];

	UART0_BAUD = 16;
	UART0_CTRL = 3u;
	/* keep QEMU's main loop turning while waiting for console input */
	*(volatile unsigned int *)0x40002020u = 2500u;	/* Timer2Load */
	*(volatile unsigned int *)0x40002028u = 0xC2u;	/* enable, periodic, 32-bit */
	lvl[PIN_CS] = 1;
	lvl[PIN_SCK] = 0;
	lvl[PIN_MOSI] = 0;

	for (;;) {
		read_line(line, sizeof line);
		const char *p = line + 1;
		if (strcmp(line, "end") == 0) {
			break;
		}
		reset_counters();
		if (line[0] == 'x' || line[0] == 'w') {
			size_t n = parse_hex(&p, txb, MAXB);
			reply_len = 0;
			if (*p == '/') {
				p++;
				reply_len = parse_hex(&p, rpl, MAXB);
			}
			reply = rpl;
			memset(rxb, 0xEE, sizeof rxb);
			volatile uint8_t *low = (volatile uint8_t *)zero_addr;
			for (size_t i = 0; i < n + 8u; i++) {
				low_mem[i] = low[i];
			}
			printf("xfer %u\n", (unsigned)n);
			spi_transfer(txb, line[0] == 'x' ? rxb : NULL, n);
			int low_changed = 0;
			for (size_t i = 0; i < n + 8u; i++) {
				if (low[i] != low_mem[i]) {
					low_changed = 1;
					low[i] = low_mem[i];
				}
			}
			print_bytes("slave rx", slave_rx, slave_n);
			if (line[0] == 'x') {
				print_bytes("master rx", rxb, n);
				int guard = 1;
				for (size_t i = n; i < sizeof rxb; i++) {
					if (rxb[i] != 0xEEu) {
						guard = 0;
					}
				}
				printf("rx beyond n: %s\n", guard ? "untouched" : "written");
			}
			printf("memory at address 0: %s\n", low_changed ? "written" : "untouched");
			print_bus();
		} else if (line[0] == 'z') {
			memset(rxb, 0xEE, sizeof rxb);
			txb[0] = 0x5A;
			printf("xfer 0\n");
			spi_transfer(txb, rxb, 0);
			printf("pin changes: %u\n", changes);
			printf("rx: %s\n", rxb[0] == 0xEEu ? "untouched" : "written");
		} else if (line[0] == 'p') {
			size_t n = (size_t)strtoul(p, NULL, 10);
			if (n > MAXB) {
				n = MAXB;
			}
			for (size_t i = 0; i < n; i++) {
				txb[i] = (uint8_t)(i * 7u + 3u);
				rpl[i] = (uint8_t)(i * 13u + 0x81u);
			}
			reply = rpl;
			reply_len = n;
			memset(rxb, 0xEE, sizeof rxb);
			printf("pattern %u\n", (unsigned)n);
			spi_transfer(txb, rxb, n);
			size_t bad_s = 0, bad_m = 0;
			for (size_t i = 0; i < n; i++) {
				if (i >= slave_n || slave_rx[i] != txb[i]) {
					bad_s++;
				}
				if (rxb[i] != rpl[i]) {
					bad_m++;
				}
			}
			printf("slave bytes: %u, wrong: %u\n", (unsigned)slave_n, (unsigned)bad_s);
			printf("master wrong: %u\n", (unsigned)bad_m);
			print_bus();
		} else {
			printf("bad script line\n");
		}
	}
	printf("end\n");
	exit(0);
}
