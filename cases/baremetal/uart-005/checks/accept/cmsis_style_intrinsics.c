/*
 * CMSIS-style variant: the file defines its own __get_PRIMASK /
 * __set_PRIMASK / __disable_irq / __WFI intrinsics and NVIC_EnableIRQ /
 * NVIC_SetPendingIRQ (no CMSIS header exists),
 * uart_write queues byte by byte and publishes the head after a fence, the
 * handler stops at a full TX buffer and switches its interrupt off once the
 * ring is drained, and the kick pends the UART0 TX line in the NVIC inside a
 * PRIMASK-protected section.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
	volatile uint32_t DATA;
	volatile uint32_t STATE;
	volatile uint32_t CTRL;
	union {
		volatile uint32_t INTSTATUS;
		volatile uint32_t INTCLEAR;
	};
	volatile uint32_t BAUDDIV;
} CMSDK_UART_TypeDef;

typedef struct {
	volatile uint32_t ISER[8];
	uint32_t RESERVED0[24];
	volatile uint32_t ICER[8];
	uint32_t RESERVED1[24];
	volatile uint32_t ISPR[8];
} NVIC_Type;

#define CMSDK_UART0_BASE 0x40004000UL
#define NVIC_BASE        0xE000E100UL
#define CMSDK_UART0      ((CMSDK_UART_TypeDef *)CMSDK_UART0_BASE)
#define NVIC             ((NVIC_Type *)NVIC_BASE)

#define UARTTX0_IRQn 1

#define CMSDK_UART_STATE_TXBF   (1UL << 0)
#define CMSDK_UART_CTRL_TXEN    (1UL << 0)
#define CMSDK_UART_CTRL_TXIRQEN (1UL << 2)
#define CMSDK_UART_INT_TX       (1UL << 0)

#define TX_BUFFER_SIZE 64U
#define TX_INDEX(i)    ((i) & (TX_BUFFER_SIZE - 1U))

static inline uint32_t __get_PRIMASK(void)
{
	uint32_t r;

	__asm volatile("mrs %0, primask" : "=r"(r));
	return r;
}

static inline void __set_PRIMASK(uint32_t v)
{
	__asm volatile("msr primask, %0" : : "r"(v) : "memory");
}

static inline void __disable_irq(void)
{
	__asm volatile("cpsid i" : : : "memory");
}

static inline void __enable_irq(void)
{
	__asm volatile("cpsie i" : : : "memory");
}

static inline void __WFI(void)
{
	__asm volatile("wfi");
}

static inline void NVIC_EnableIRQ(int irq)
{
	NVIC->ISER[((uint32_t)irq) >> 5] = 1UL << (((uint32_t)irq) & 0x1FUL);
}

static inline void NVIC_SetPendingIRQ(int irq)
{
	NVIC->ISPR[((uint32_t)irq) >> 5] = 1UL << (((uint32_t)irq) & 0x1FUL);
}

static uint8_t tx_buffer[TX_BUFFER_SIZE];
static volatile uint32_t tx_in;
static volatile uint32_t tx_out;

void UARTTX0_Handler(void)
{
	CMSDK_UART0->INTCLEAR = CMSDK_UART_INT_TX;
	while (tx_out != tx_in) {
		if (CMSDK_UART0->STATE & CMSDK_UART_STATE_TXBF) {
			return; /* the next TX-empty interrupt continues */
		}
		CMSDK_UART0->DATA = tx_buffer[TX_INDEX(tx_out)];
		tx_out = tx_out + 1U;
	}
	CMSDK_UART0->CTRL &= ~CMSDK_UART_CTRL_TXIRQEN;
}

void uart_tx_init(void)
{
	CMSDK_UART0->BAUDDIV = 25000000UL / 115200UL;
	CMSDK_UART0->CTRL = CMSDK_UART_CTRL_TXEN;
	NVIC_EnableIRQ(UARTTX0_IRQn);
}

size_t uart_write(const void *buf, size_t len)
{
	const uint8_t *bytes = buf;
	uint32_t in = tx_in;
	size_t queued = 0;

	while (queued < len && (in - tx_out) < TX_BUFFER_SIZE) {
		tx_buffer[TX_INDEX(in)] = bytes[queued];
		in++;
		queued++;
	}
	if (queued == 0U) {
		return 0U;
	}
	__atomic_thread_fence(__ATOMIC_RELEASE);
	tx_in = in;

	uint32_t primask = __get_PRIMASK();
	__disable_irq();
	if ((CMSDK_UART0->CTRL & CMSDK_UART_CTRL_TXIRQEN) == 0U) {
		CMSDK_UART0->CTRL |= CMSDK_UART_CTRL_TXIRQEN;
		NVIC_SetPendingIRQ(UARTTX0_IRQn);
	}
	__set_PRIMASK(primask);
	return queued;
}

static bool ring_has_more_than(uint32_t n)
{
	return (tx_in - tx_out) > n;
}

static void wait_ring(uint32_t n)
{
	__disable_irq();
	while (ring_has_more_than(n)) {
		__WFI();
		__enable_irq();
		__disable_irq();
	}
	__enable_irq();
}

static size_t write_all(const char *s, size_t len)
{
	size_t sum = 0;

	for (;;) {
		size_t got = uart_write(s + sum, len - sum);

		sum += got;
		if (sum == len) {
			return sum;
		}
		wait_ring(TX_BUFFER_SIZE - 1U);
	}
}

int main(void)
{
	static char payload[1024];
	char done_line[64];
	int used = 0;

	uart_tx_init();
	for (int i = 1; i <= 16; ++i) {
		used += snprintf(payload + used, sizeof(payload) - (size_t)used,
				 "line %02d of 16: abcdefghijklmnopqrstuvwxyz\r\n", i);
	}
	size_t sent = write_all(payload, (size_t)used);

	int m = snprintf(done_line, sizeof(done_line), "uart tx done: %u bytes\r\n", (unsigned)sent);
	(void)write_all(done_line, (size_t)m);

	wait_ring(0U);
	exit(0);
}
