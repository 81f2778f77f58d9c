/*
 * Priming variant: the ring keeps one slot free and wraps its indices with
 * a modulo, the handler moves one byte per TX-empty event, and uart_write
 * restarts an idle transmitter by writing the first byte itself, with
 * PRIMASK saved, interrupts masked and the mask restored only if it was
 * clear before.
 */
#include <stddef.h>
#include <stdint.h>

#define REG32(addr) (*(volatile uint32_t *)(addr))

#define UART0_BASE     0x40004000u
#define UART0_DATA     REG32(UART0_BASE + 0x00u)
#define UART0_STATE    REG32(UART0_BASE + 0x04u)
#define UART0_CTRL     REG32(UART0_BASE + 0x08u)
#define UART0_INTCLEAR REG32(UART0_BASE + 0x0Cu)
#define UART0_BAUDDIV  REG32(UART0_BASE + 0x10u)

#define NVIC_SETENA0 REG32(0xE000E100u)

enum {
	TXQ_LEN = 64,
	TX_FULL = 1 << 0,
	CTRL_TX_EN = 1 << 0,
	CTRL_TX_IRQ = 1 << 2,
	IRQ_UART0_TX = 1,
};

static struct {
	volatile uint8_t buf[TXQ_LEN];
	volatile uint16_t head; /* producer: uart_write */
	volatile uint16_t tail; /* consumer: UARTTX0_Handler */
} txq;

static inline uint32_t lock_irq(void)
{
	uint32_t was;

	__asm volatile("MRS %0, PRIMASK" : "=r"(was));
	__asm volatile("CPSID i" ::: "memory");
	return was;
}

static inline void unlock_irq(uint32_t was)
{
	if ((was & 1u) == 0u) {
		__asm volatile("CPSIE i" ::: "memory");
	}
}

void UARTTX0_Handler(void)
{
	uint16_t t = txq.tail;

	UART0_INTCLEAR = 1u;
	if (t == txq.head) {
		UART0_CTRL &= ~(uint32_t)CTRL_TX_IRQ;
		return;
	}
	UART0_DATA = txq.buf[t];
	txq.tail = (uint16_t)((t + 1u) % TXQ_LEN);
}

void uart_tx_init(void)
{
	UART0_CTRL = 0u;
	UART0_BAUDDIV = 25000000u / 115200u;
	txq.head = 0u;
	txq.tail = 0u;
	UART0_INTCLEAR = 0xFu;
	UART0_CTRL = CTRL_TX_EN;
	NVIC_SETENA0 = 1u << IRQ_UART0_TX;
}

size_t uart_write(const void *buf, size_t len)
{
	const uint8_t *p = (const uint8_t *)buf;
	uint16_t h = txq.head;
	size_t count = 0;

	while (count < len) {
		uint16_t next = (uint16_t)((h + 1u) % TXQ_LEN);

		if (next == txq.tail) {
			break; /* full */
		}
		txq.buf[h] = p[count++];
		h = next;
	}
	if (count == 0u) {
		return 0u;
	}
	txq.head = h;

	uint32_t was = lock_irq();
	if ((UART0_CTRL & CTRL_TX_IRQ) == 0u) {
		/* Transmitter stopped: interrupts on, then send the oldest byte. */
		UART0_CTRL |= CTRL_TX_IRQ;
		if ((UART0_STATE & TX_FULL) == 0u && txq.tail != txq.head) {
			uint16_t t = txq.tail;

			UART0_DATA = txq.buf[t];
			txq.tail = (uint16_t)((t + 1u) % TXQ_LEN);
		}
	}
	unlock_irq(was);
	return count;
}

static int queued(void)
{
	return txq.head != txq.tail;
}

static int full(void)
{
	return (uint16_t)((txq.head + 1u) % TXQ_LEN) == txq.tail;
}

static size_t push(const char *s, size_t n)
{
	size_t total = 0;

	while (n > 0u) {
		size_t took = uart_write(s, n);

		total += took;
		s += took;
		n -= took;
		for (;;) {
			__asm volatile("CPSID i" ::: "memory");
			if (n == 0u || !full()) {
				__asm volatile("CPSIE i" ::: "memory");
				break;
			}
			__asm volatile("WFI");
			__asm volatile("CPSIE i" ::: "memory");
		}
	}
	return total;
}

static size_t put_number(char *out, unsigned value, unsigned width)
{
	char digits[10];
	size_t n = 0;

	do {
		digits[n++] = (char)('0' + value % 10u);
		value /= 10u;
	} while (value != 0u);
	while (n < width) {
		digits[n++] = '0';
	}
	for (size_t i = 0; i < n; i++) {
		out[i] = digits[n - 1u - i];
	}
	return n;
}

static size_t put_text(char *out, const char *s)
{
	size_t n = 0;

	while (s[n] != '\0') {
		out[n] = s[n];
		n++;
	}
	return n;
}

int main(void)
{
	static char text[16 * 44];
	char tail_line[48];
	size_t len = 0;
	size_t accepted;

	uart_tx_init();

	for (unsigned line = 1; line <= 16u; line++) {
		len += put_text(text + len, "line ");
		len += put_number(text + len, line, 2u);
		len += put_text(text + len, " of 16: abcdefghijklmnopqrstuvwxyz\r\n");
	}
	accepted = push(text, len);

	size_t k = put_text(tail_line, "uart tx done: ");
	k += put_number(tail_line + k, (unsigned)accepted, 1u);
	k += put_text(tail_line + k, " bytes\r\n");
	push(tail_line, k);

	for (;;) {
		__asm volatile("CPSID i" ::: "memory");
		if (!queued()) {
			__asm volatile("CPSIE i" ::: "memory");
			break;
		}
		__asm volatile("WFI");
		__asm volatile("CPSIE i" ::: "memory");
	}
	return 0;
}
