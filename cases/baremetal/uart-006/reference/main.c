/*
 * uart-006 reference: interrupt-driven UART0 receive into a 64-byte ring
 * with XON/XOFF software flow control (high-water 48, low-water 16).
 *
 * head is written only by the RX handler, tail only by thread mode; both
 * run freely and the fill level is head - tail. The "XOFF outstanding" flag
 * is set by the handler and cleared by uart_flow_release(), which decides
 * and sends XON with interrupts masked so the handler cannot interleave.
 */
#include <stddef.h>
#include <stdint.h>
#include "uart_flow.h"

#define UART0_BASE      0x40004000u
#define UART_DATA       (*(volatile uint32_t *)(UART0_BASE + 0x00u))
#define UART_STATE      (*(volatile uint32_t *)(UART0_BASE + 0x04u))
#define UART_CTRL       (*(volatile uint32_t *)(UART0_BASE + 0x08u))
#define UART_INTCLEAR   (*(volatile uint32_t *)(UART0_BASE + 0x0Cu))
#define UART_BAUDDIV    (*(volatile uint32_t *)(UART0_BASE + 0x10u))
#define NVIC_ISER0      (*(volatile uint32_t *)0xE000E100u)

#define STATE_TXFULL    (1u << 0)
#define STATE_RXFULL    (1u << 1)
#define CTRL_TX_EN      (1u << 0)
#define CTRL_RX_EN      (1u << 1)
#define CTRL_RX_INTEN   (1u << 3)
#define INT_RX          (1u << 1)

#define RING_SIZE       64u
#define HIGH_WATER      48u
#define LOW_WATER       16u

static uint8_t ring[RING_SIZE];
static volatile uint32_t head;          /* written by the handler */
static volatile uint32_t tail;          /* written by thread mode */
static volatile uint8_t xoff_sent;
static volatile uint32_t overruns;
static uint32_t pending_len;            /* bytes of the last line returned, '\n' included */

static void send_flow(uint8_t b)
{
	while (UART_STATE & STATE_TXFULL) {
	}
	UART_DATA = b;
}

void uart_flow_init(void)
{
	head = 0u;
	tail = 0u;
	xoff_sent = 0u;
	overruns = 0u;
	pending_len = 0u;
	UART_BAUDDIV = 25000000u / 115200u;
	UART_CTRL = CTRL_TX_EN | CTRL_RX_EN | CTRL_RX_INTEN;
	NVIC_ISER0 = 1u << 0;
}

static void store(uint8_t b)
{
	uint32_t h = head;
	if (h - tail >= RING_SIZE) {
		overruns = overruns + 1u;
		return;
	}
	ring[h % RING_SIZE] = b;
	h++;
	head = h;
	if (!xoff_sent && h - tail >= HIGH_WATER) {
		xoff_sent = 1u;
		send_flow(UART_FLOW_XOFF);
	}
}

void UART0RX_Handler(void)
{
	/* clear first: a byte that arrives after this sets the bit again */
	UART_INTCLEAR = INT_RX;
	while (UART_STATE & STATE_RXFULL) {
		store((uint8_t)(UART_DATA & 0xFFu));
	}
}

int uart_flow_getline(char *buf, size_t size)
{
	uint32_t t = tail;
	uint32_t fill = head - t;
	for (uint32_t i = 0; i < fill; i++) {
		if (ring[(t + i) % RING_SIZE] == '\n') {
			uint32_t n = i;
			if (n > size - 1u) {
				n = (uint32_t)(size - 1u);
			}
			for (uint32_t j = 0; j < n; j++) {
				buf[j] = (char)ring[(t + j) % RING_SIZE];
			}
			buf[n] = '\0';
			pending_len = i + 1u;
			return (int)n;
		}
	}
	return -1;
}

void uart_flow_release(void)
{
	__asm__ volatile("cpsid i" ::: "memory");
	tail = tail + pending_len;
	pending_len = 0u;
	if (xoff_sent && head - tail <= LOW_WATER) {
		xoff_sent = 0u;
		send_flow(UART_FLOW_XON);
	}
	__asm__ volatile("cpsie i" ::: "memory");
}

uint32_t uart_flow_overruns(void)
{
	return overruns;
}
