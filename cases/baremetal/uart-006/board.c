/*
 * Board fixture of uart-006 (hidden test bench): the application's main(),
 * a slow line consumer. It calls the answer's uart_flow_init(), then takes
 * lines with uart_flow_getline(), "processes" each one (a line "wait <ms>"
 * keeps it busy for <ms> milliseconds, measured on dual timer 1 at 25 MHz;
 * other lines take no time), prints "line <k>: <text>" on UART0 and calls
 * uart_flow_release(). After the line "end", or when no complete line has
 * been available for 500 ms since the last one, it prints "overruns <n>"
 * and exits with 0. It waits for the first line as long as it takes: QEMU
 * starts feeding stdin a few hundred virtual milliseconds after reset.
 * Everything is printed through UART0 (polled), so the flow-control bytes
 * the answer sends appear in the same stream, in order.
 * Dual timer 2 ticks every 50 us without an interrupt to keep QEMU's main
 * loop polling stdin (see main()).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "uart_flow.h"

#define REG(a) (*(volatile uint32_t *)(a))

#define UART0_DATA  0x40004000u
#define UART0_STATE 0x40004004u
#define DT1_LOAD    0x40002000u
#define DT1_VALUE   0x40002004u
#define DT1_CTRL    0x40002008u
#define DT2_LOAD    0x40002020u
#define DT2_CTRL    0x40002028u

#define TICKS_PER_MS 25000u
#define IDLE_MS      500u

static uint32_t now(void)
{
	return 0xFFFFFFFFu - REG(DT1_VALUE);
}

static void out_char(char ch)
{
	while (REG(UART0_STATE) & 1u) {
	}
	REG(UART0_DATA) = (uint32_t)(unsigned char)ch;
}

static void out_str(const char *s)
{
	while (*s) {
		out_char(*s++);
	}
}

static void out_u32(uint32_t v)
{
	char tmp[12];
	int n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10u);
		v /= 10u;
	} while (v != 0u);
	while (n > 0) {
		out_char(tmp[--n]);
	}
}

static void finish(void)
{
	out_str("overruns ");
	out_u32(uart_flow_overruns());
	out_char('\n');
	exit(0);
}

int main(void)
{
	static char buf[96];
	uint32_t k = 0;
	uint32_t idle_start = 0u;
	int started = 0;

	REG(DT1_LOAD) = 0xFFFFFFFFu;
	REG(DT1_CTRL) = (1u << 7) | (1u << 1);      /* enable, 32-bit, free-running, /1 */
	/* Dual timer 2: periodic 50 us, no interrupt. Its expiries wake QEMU's
	 * main loop, which only then notices that UART0 can take the next
	 * stdin byte; without it input may stall for a long time. */
	REG(DT2_LOAD) = 1250u;
	REG(DT2_CTRL) = (1u << 7) | (1u << 6) | (1u << 1);

	uart_flow_init();
	for (;;) {
		memset(buf, 0, sizeof(buf));
		int n = uart_flow_getline(buf, sizeof(buf) - 16u);
		if (n < 0) {
			if (started && now() - idle_start >= IDLE_MS * TICKS_PER_MS) {
				finish();
			}
			continue;
		}
		buf[sizeof(buf) - 1u] = '\0';
		if (strncmp(buf, "wait ", 5) == 0) {
			uint32_t ms = (uint32_t)strtoul(buf + 5, NULL, 10);
			uint32_t t0 = now();
			while (now() - t0 < ms * TICKS_PER_MS) {
			}
		}
		k++;
		out_str("line ");
		out_u32(k);
		out_str(": ");
		out_str(buf);
		out_char('\n');
		int last = strcmp(buf, "end") == 0;
		uart_flow_release();
		if (last) {
			finish();
		}
		idle_start = now();
		started = 1;
	}
}
