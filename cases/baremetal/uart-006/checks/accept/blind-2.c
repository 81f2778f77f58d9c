#include <stddef.h>
#include <stdint.h>
#include "uart_flow.h"

/* CMSDK APB UART0 at 0x40004000, register access by byte offset. */
#define UART0_REG(off)  (*(volatile uint32_t *)(0x40004000u + (off)))
#define UART0_DATA      UART0_REG(0x00)
#define UART0_STATE     UART0_REG(0x04)   /* b0 TX full, b1 RX full */
#define UART0_CTRL      UART0_REG(0x08)   /* b0 TXEN, b1 RXEN, b2 TXIE, b3 RXIE */
#define UART0_INTCLEAR  UART0_REG(0x0C)   /* b0 TX irq, b1 RX irq */
#define UART0_BAUDDIV   UART0_REG(0x10)

/* NVIC set-/clear-enable for external interrupts 0..31. */
#define NVIC_ISER0      (*(volatile uint32_t *)0xE000E100u)
#define NVIC_ICER0      (*(volatile uint32_t *)0xE000E180u)
#define UART0RX_MASK    0x1u              /* external interrupt 0 */

/*
 * Ring of 64 bytes with free-running 32-bit indices:
 *   wr - rd is the fill level (0..64), slot = index % 64.
 * wr is only advanced by the handler, rd only by uart_flow_release().
 */
static volatile uint8_t  rx_buf[64];
static volatile uint32_t wr;
static volatile uint32_t rd;
static volatile uint32_t dropped;
static volatile int      paused;        /* an XOFF is outstanding */

static uint32_t line_end;               /* rd value after the held line */
static int      line_held;

static void tx(uint8_t c)
{
    while (UART0_STATE & 0x1u) {
    }
    UART0_DATA = c;
}

void uart_flow_init(void)
{
    NVIC_ICER0 = UART0RX_MASK;
    UART0_CTRL = 0;
    UART0_INTCLEAR = 0x3u;

    wr = 0;
    rd = 0;
    dropped = 0;
    paused = 0;
    line_held = 0;
    line_end = 0;

    UART0_BAUDDIV = 217;                /* 25 MHz / 115200 baud */
    UART0_CTRL = 0x1u | 0x2u | 0x8u;    /* TX, RX, RX interrupt; TX irq off */
    NVIC_ISER0 = UART0RX_MASK;
}

void UART0RX_Handler(void)
{
    UART0_INTCLEAR = 0x2u;              /* before touching DATA */

    while (UART0_STATE & 0x2u) {
        uint8_t c = (uint8_t)UART0_DATA;
        uint32_t fill = wr - rd;

        if (fill == 64u) {
            dropped = dropped + 1u;
        } else {
            rx_buf[wr % 64u] = c;
            wr = wr + 1u;
            if (fill + 1u >= 48u && !paused) {
                paused = 1;
                tx(UART_FLOW_XOFF);
            }
        }
    }
}

int uart_flow_getline(char *buf, size_t size)
{
    uint32_t start = rd;
    uint32_t stop = wr;                 /* bytes beyond this are not in yet */
    size_t n = 0;

    for (uint32_t i = start; i != stop; i++) {
        char c = (char)rx_buf[i % 64u];
        if (c == '\n') {
            buf[n] = '\0';
            line_end = i + 1u;
            line_held = 1;
            return (int)n;
        }
        if (n + 1u < size) {
            buf[n++] = c;
        }
    }
    return -1;
}

void uart_flow_release(void)
{
    if (!line_held) {
        return;
    }
    line_held = 0;

    /* Keep the handler out while the level is updated and XON decided. */
    NVIC_ICER0 = UART0RX_MASK;
    __asm volatile("dsb\n\tisb" ::: "memory");

    rd = line_end;
    if (paused && (wr - rd) <= 16u) {
        tx(UART_FLOW_XON);
        paused = 0;
    }

    NVIC_ISER0 = UART0RX_MASK;
}

uint32_t uart_flow_overruns(void)
{
    return dropped;
}
