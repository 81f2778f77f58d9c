/* Accepted variant: wrapped indices plus a shared byte count; thread-mode
 * updates of the count run with PRIMASK set (saved and restored). */
#include <stdint.h>
#include <stddef.h>
#include "uart_flow.h"

#define U0 ((volatile uint32_t *)0x40004000u)
enum { DATA = 0, STATE = 1, CTRL = 2, INTST = 3, BAUD = 4 };

#define CAP 64u

static volatile uint8_t buf_[CAP];
static volatile unsigned wr, rd, used;
static volatile int paused;
static volatile uint32_t dropped;
static unsigned peeked;

static inline uint32_t irq_save(void)
{
	uint32_t p;
	__asm__ volatile("mrs %0, primask\n cpsid i" : "=r"(p) :: "memory");
	return p;
}

static inline void irq_restore(uint32_t p)
{
	__asm__ volatile("msr primask, %0" :: "r"(p) : "memory");
}

static void tx(uint8_t c)
{
	while (U0[STATE] & 1u) {
	}
	U0[DATA] = c;
}

void uart_flow_init(void)
{
	wr = rd = used = 0;
	paused = 0;
	dropped = 0;
	peeked = 0;
	U0[BAUD] = 217u;
	U0[CTRL] = 0x1u | 0x2u | 0x8u;
	*(volatile uint32_t *)0xE000E100u = 1u;
}

void UART0RX_Handler(void)
{
	U0[INTST] = 2u;
	while (U0[STATE] & 2u) {
		uint8_t c = (uint8_t)U0[DATA];
		if (used == CAP) {
			dropped++;
			continue;
		}
		buf_[wr] = c;
		wr = (wr + 1u) & (CAP - 1u);
		used++;
		if (used >= 48u && !paused) {
			paused = 1;
			tx(UART_FLOW_XOFF);
		}
	}
}

int uart_flow_getline(char *dst, size_t size)
{
	unsigned n = used;          /* only grows behind our back */
	unsigned i = rd;
	for (unsigned k = 0; k < n; k++, i = (i + 1u) & (CAP - 1u)) {
		char ch = (char)buf_[i];
		if (ch == '\n') {
			dst[k < size ? k : size - 1u] = '\0';
			peeked = k + 1u;
			return (int)k;
		}
		if (k + 1u < size) {
			dst[k] = ch;
		}
	}
	return -1;
}

void uart_flow_release(void)
{
	uint32_t s = irq_save();
	rd = (rd + peeked) % CAP;
	used -= peeked;
	peeked = 0;
	if (paused && used <= 16u) {
		paused = 0;
		tx(UART_FLOW_XON);
	}
	irq_restore(s);
}

uint32_t uart_flow_overruns(void)
{
	return dropped;
}
