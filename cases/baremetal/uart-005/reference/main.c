#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define PCLK_HZ   25000000U
#define UART_BAUD 115200U

typedef struct {
	volatile uint32_t DATA;
	volatile uint32_t STATE;
	volatile uint32_t CTRL;
	volatile uint32_t INTSTATUS; /* INTCLEAR when written */
	volatile uint32_t BAUDDIV;
} cmsdk_uart_t;

#define UART0 ((cmsdk_uart_t *)0x40004000UL)

#define UART_STATE_TXFULL (1U << 0)
#define UART_CTRL_TXEN    (1U << 0)
#define UART_CTRL_TXIE    (1U << 2)
#define UART_INT_TX       (1U << 0)

#define NVIC_ISER0    (*(volatile uint32_t *)0xE000E100UL)
#define NVIC_ISPR0    (*(volatile uint32_t *)0xE000E200UL)
#define UART0_TX_IRQn 1U

#define TX_RING_SIZE 64U /* must stay a power of two */
#define TX_RING_MASK (TX_RING_SIZE - 1U)

#define LINE_COUNT 16U

/*
 * Single producer (uart_write, thread mode), single consumer (the TX
 * handler). The indices run freely and are masked on use, so
 * head - tail is the fill level even across the 2^32 wrap.
 */
static uint8_t tx_ring[TX_RING_SIZE];
static volatile uint32_t tx_head; /* written only by uart_write */
static volatile uint32_t tx_tail; /* written only by UARTTX0_Handler */

static inline uint32_t irq_save(void)
{
	uint32_t primask;

	__asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask) : : "memory");
	return primask;
}

static inline void irq_restore(uint32_t primask)
{
	__asm__ volatile("msr primask, %0" : : "r"(primask) : "memory");
}

void UARTTX0_Handler(void)
{
	uint32_t tail = tx_tail;

	UART0->INTSTATUS = UART_INT_TX;
	while (tail != tx_head && (UART0->STATE & UART_STATE_TXFULL) == 0U) {
		UART0->DATA = tx_ring[tail & TX_RING_MASK];
		tail++;
	}
	tx_tail = tail;
	if (tail == tx_head) {
		/* Nothing left to send: stay quiet until uart_write kicks again. */
		UART0->CTRL &= ~UART_CTRL_TXIE;
	}
}

void uart_tx_init(void)
{
	UART0->CTRL = 0U;
	UART0->BAUDDIV = PCLK_HZ / UART_BAUD;
	UART0->INTSTATUS = UART_INT_TX;
	UART0->CTRL = UART_CTRL_TXEN;
	NVIC_ISER0 = 1U << UART0_TX_IRQn;
}

size_t uart_write(const void *buf, size_t len)
{
	const uint8_t *src = buf;
	uint32_t head = tx_head;
	uint32_t space = TX_RING_SIZE - (head - tx_tail);
	size_t n = (len < space) ? len : space;

	if (n == 0U) {
		return 0U;
	}
	for (size_t i = 0; i < n; i++) {
		tx_ring[(head + i) & TX_RING_MASK] = src[i];
	}
	/* The bytes must be in the ring before the handler can see the new head. */
	__asm__ volatile("" : : : "memory");
	tx_head = head + n;

	/*
	 * The handler switches the TX interrupt off when it finds the ring
	 * empty, and the UART raises it only when its buffer drains, so a
	 * stopped transmitter needs a kick. Test and kick with interrupts
	 * masked; the kick pends the TX line so that the handler itself
	 * starts sending once interrupts are enabled again.
	 */
	uint32_t key = irq_save();
	if ((UART0->CTRL & UART_CTRL_TXIE) == 0U) {
		UART0->CTRL |= UART_CTRL_TXIE;
		NVIC_ISPR0 = 1U << UART0_TX_IRQn;
	}
	irq_restore(key);
	return n;
}

/* Sleep until at most max_used bytes wait in the ring. */
static void tx_wait_until(uint32_t max_used)
{
	__asm__ volatile("cpsid i" : : : "memory");
	while (tx_head - tx_tail > max_used) {
		/* wfi wakes on a pending interrupt even with PRIMASK set. */
		__asm__ volatile("wfi");
		__asm__ volatile("cpsie i" : : : "memory");
		__asm__ volatile("cpsid i" : : : "memory");
	}
	__asm__ volatile("cpsie i" : : : "memory");
}

static size_t send_all(const char *text, size_t len)
{
	size_t sent = 0;

	while (sent < len) {
		sent += uart_write(text + sent, len - sent);
		if (sent < len) {
			tx_wait_until(TX_RING_SIZE - 1U);
		}
	}
	return sent;
}

static char block[LINE_COUNT * 48U];

int main(void)
{
	char last[40];
	size_t used = 0;

	uart_tx_init();

	for (uint32_t i = 1; i <= LINE_COUNT; i++) {
		used += (size_t)snprintf(block + used, sizeof(block) - used,
					 "line %02lu of %02lu: abcdefghijklmnopqrstuvwxyz\r\n",
					 (unsigned long)i, (unsigned long)LINE_COUNT);
	}
	size_t total = send_all(block, used);

	int n = snprintf(last, sizeof(last), "uart tx done: %lu bytes\r\n", (unsigned long)total);
	send_all(last, (size_t)n);

	tx_wait_until(0U);
	exit(0);
}
