/* src/main.c - UART0 receive ring with XON/XOFF flow control (MPS2 AN385). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uart_flow.h"

/* ---- CMSDK APB UART0 ------------------------------------------------- */
typedef struct {
    volatile uint32_t DATA;      /* 0x00 */
    volatile uint32_t STATE;     /* 0x04 */
    volatile uint32_t CTRL;      /* 0x08 */
    volatile uint32_t INTSTATUS; /* 0x0C (write: INTCLEAR) */
    volatile uint32_t BAUDDIV;   /* 0x10 */
} cmsdk_uart_t;

#define UART0               ((cmsdk_uart_t *)0x40004000u)

#define UART_STATE_TXFULL   (1u << 0)
#define UART_STATE_RXFULL   (1u << 1)

#define UART_CTRL_TXEN      (1u << 0)
#define UART_CTRL_RXEN      (1u << 1)
#define UART_CTRL_TXIE      (1u << 2)
#define UART_CTRL_RXIE      (1u << 3)

#define UART_INT_TX         (1u << 0)
#define UART_INT_RX         (1u << 1)

#define UART_CLOCK_HZ       25000000u
#define UART_BAUD           115200u

/* ---- NVIC ------------------------------------------------------------ */
#define NVIC_ISER0          (*(volatile uint32_t *)0xE000E100u)
#define UART0RX_IRQn        0u

/* ---- Ring and flow-control thresholds -------------------------------- */
#define RING_SIZE           64u            /* power of two */
#define RING_MASK           (RING_SIZE - 1u)
#define HIGH_WATER          48u
#define LOW_WATER           16u

static volatile uint8_t  ring[RING_SIZE];
static volatile uint32_t ring_head;    /* next slot to write (handler)   */
static volatile uint32_t ring_tail;    /* oldest byte (thread mode)      */
static volatile uint32_t ring_count;   /* fill level                     */
static volatile bool     xoff_outstanding;
static volatile uint32_t overrun_count;

/* Bytes (including '\n') of the line handed out by the last getline. */
static uint32_t pending_line_len;

/* ---- helpers --------------------------------------------------------- */
static inline uint32_t irq_save(void)
{
    uint32_t primask;
    __asm volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask) : : "memory");
    return primask;
}

static inline void irq_restore(uint32_t primask)
{
    __asm volatile("msr primask, %0" : : "r"(primask) : "memory");
}

static void uart_send_byte(uint8_t c)
{
    while (UART0->STATE & UART_STATE_TXFULL) {
        /* wait for room in the transmitter */
    }
    UART0->DATA = c;
}

/* ---- API ------------------------------------------------------------- */
void uart_flow_init(void)
{
    /* Quiesce the UART while the state is set up. */
    UART0->CTRL = 0u;
    UART0->INTSTATUS = UART_INT_TX | UART_INT_RX;

    ring_head = 0u;
    ring_tail = 0u;
    ring_count = 0u;
    xoff_outstanding = false;
    overrun_count = 0u;
    pending_line_len = 0u;

    UART0->BAUDDIV = UART_CLOCK_HZ / UART_BAUD;   /* 217 */
    UART0->CTRL = UART_CTRL_TXEN | UART_CTRL_RXEN | UART_CTRL_RXIE;

    NVIC_ISER0 = 1u << UART0RX_IRQn;
}

void UART0RX_Handler(void)
{
    /* Clear first so a byte arriving during the drain raises a new IRQ. */
    UART0->INTSTATUS = UART_INT_RX;

    while (UART0->STATE & UART_STATE_RXFULL) {
        uint8_t byte = (uint8_t)(UART0->DATA & 0xFFu);

        if (ring_count >= RING_SIZE) {
            overrun_count++;
            continue;
        }

        ring[ring_head] = byte;
        ring_head = (ring_head + 1u) & RING_MASK;
        ring_count++;

        if (ring_count >= HIGH_WATER && !xoff_outstanding) {
            uart_send_byte((uint8_t)UART_FLOW_XOFF);
            xoff_outstanding = true;
        }
    }
}

int uart_flow_getline(char *buf, size_t size)
{
    /* The handler only appends, so a snapshot of the fill level is a
     * consistent view of the bytes that are already stored. */
    uint32_t avail = ring_count;
    uint32_t tail = ring_tail;
    uint32_t len;

    for (len = 0u; len < avail; len++) {
        if (ring[(tail + len) & RING_MASK] == (uint8_t)'\n') {
            break;
        }
    }
    if (len == avail) {
        return -1;          /* no complete line yet */
    }

    size_t copy = len;
    if (size == 0u) {
        copy = 0u;
    } else if (copy > size - 1u) {
        copy = size - 1u;
    }
    for (size_t i = 0u; i < copy; i++) {
        buf[i] = (char)ring[(tail + i) & RING_MASK];
    }
    if (size != 0u) {
        buf[copy] = '\0';
    }

    pending_line_len = len + 1u;   /* the '\n' goes with the line */
    return (int)copy;
}

void uart_flow_release(void)
{
    uint32_t n = pending_line_len;
    if (n == 0u) {
        return;
    }
    pending_line_len = 0u;

    uint32_t primask = irq_save();

    ring_tail = (ring_tail + n) & RING_MASK;
    ring_count -= n;

    if (xoff_outstanding && ring_count <= LOW_WATER) {
        uart_send_byte((uint8_t)UART_FLOW_XON);
        xoff_outstanding = false;
    }

    irq_restore(primask);
}

uint32_t uart_flow_overruns(void)
{
    return overrun_count;
}
