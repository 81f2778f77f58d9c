/*
 * NVIC-line variant: uart_write clamps the request to the free space,
 * copies with memcpy in up to two pieces, publishes the head after a
 * signal fence, and restarts an idle transmitter with only the UART0 TX
 * line disabled in the NVIC (PRIMASK is never touched there), priming the
 * first byte when the TX buffer is empty.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

typedef struct {
	volatile uint32_t data;
	volatile uint32_t state;
	volatile uint32_t ctrl;
	volatile uint32_t intclear;
	volatile uint32_t bauddiv;
} uart_regs_t;

static uart_regs_t *const uart0 = (uart_regs_t *)0x40004000u;

#define NVIC_ISER ((volatile uint32_t *)0xE000E100u)
#define NVIC_ICER ((volatile uint32_t *)0xE000E180u)

#define UART_TX_LINE   1u
#define STATE_TX_FULL  0x1u
#define CTRL_TXEN      0x1u
#define CTRL_TXINT     0x4u

#define RING_LEN 64u

static uint8_t ring[RING_LEN];
static volatile uint32_t wr_idx; /* advanced by uart_write only */
static volatile uint32_t rd_idx; /* advanced by the TX handler only (or with its line off) */

static inline void tx_line_off(void)
{
	NVIC_ICER[0] = 1u << UART_TX_LINE;
	__asm__ volatile("dsb\n\tisb" ::: "memory");
}

static inline void tx_line_on(void)
{
	NVIC_ISER[0] = 1u << UART_TX_LINE;
}

void UARTTX0_Handler(void)
{
	uint32_t rd = rd_idx;

	uart0->intclear = 1u;
	for (; rd != wr_idx; rd++) {
		if (uart0->state & STATE_TX_FULL) {
			break;
		}
		uart0->data = ring[rd & (RING_LEN - 1u)];
	}
	rd_idx = rd;
	if (rd == wr_idx) {
		uart0->ctrl &= ~CTRL_TXINT;
	}
}

void uart_tx_init(void)
{
	uart0->ctrl = 0u;
	uart0->bauddiv = 25000000u / 115200u;
	uart0->intclear = 0xFu;
	uart0->ctrl = CTRL_TXEN;
	tx_line_on();
}

size_t uart_write(const void *buf, size_t len)
{
	uint32_t wr = wr_idx;
	uint32_t room = RING_LEN - (wr - rd_idx);

	if (len > room) {
		len = room;
	}
	if (len == 0u) {
		return 0u;
	}

	uint32_t at = wr & (RING_LEN - 1u);
	size_t first = RING_LEN - at;

	if (first > len) {
		first = len;
	}
	memcpy(&ring[at], buf, first);
	memcpy(&ring[0], (const uint8_t *)buf + first, len - first);
	__atomic_signal_fence(__ATOMIC_RELEASE);
	wr_idx = wr + (uint32_t)len;

	tx_line_off();
	if ((uart0->ctrl & CTRL_TXINT) == 0u) {
		uart0->ctrl |= CTRL_TXINT;
		if ((uart0->state & STATE_TX_FULL) == 0u) {
			uint32_t rd = rd_idx;

			uart0->data = ring[rd & (RING_LEN - 1u)];
			rd_idx = rd + 1u;
		}
	}
	tx_line_on();
	return len;
}

static void irq_mask(void)
{
	__asm__ volatile("cpsid i" ::: "memory");
}

static void irq_unmask(void)
{
	__asm__ volatile("cpsie i" ::: "memory");
}

static uint32_t pending_bytes(void)
{
	return wr_idx - rd_idx;
}

static void sleep_while_pending_above(uint32_t limit)
{
	irq_mask();
	while (pending_bytes() > limit) {
		__asm__ volatile("wfi");
		irq_unmask();
		irq_mask();
	}
	irq_unmask();
}

int main(void)
{
	static char lines[800];
	char summary[32];
	size_t total = 0;
	size_t off = 0;

	uart_tx_init();

	for (int i = 1; i <= 16; i++) {
		off += (size_t)sprintf(&lines[off], "line %02d of 16: abcdefghijklmnopqrstuvwxyz\r\n", i);
	}
	for (size_t done = 0; done < off; ) {
		size_t n = uart_write(&lines[done], off - done);

		done += n;
		total += n;
		if (done < off) {
			sleep_while_pending_above(RING_LEN - 1u);
		}
	}

	size_t slen = (size_t)sprintf(summary, "uart tx done: %u bytes\r\n", (unsigned)total);
	for (size_t done = 0; done < slen; ) {
		done += uart_write(summary + done, slen - done);
		if (done < slen) {
			sleep_while_pending_above(RING_LEN - 1u);
		}
	}

	sleep_while_pending_above(0u);
	exit(EXIT_SUCCESS);
}
