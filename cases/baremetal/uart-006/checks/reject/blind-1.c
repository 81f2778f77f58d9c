/* defect: classic head/tail ring that treats "next head == tail" as full, so it
 * only ever holds 63 bytes and the 64th byte is dropped and counted as an overrun.
 * breaks: "The ring holds at most 64 bytes; a byte that arrives while it holds 64 bytes is discarded and counted as an overrun (`uart_flow_overruns()` returns that count)."
 * must_fail: scenario_full_ring_holds_64_bytes, scenario_overrun_counts_dropped_bytes, scenario_full_ring_no_complete_line
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uart_flow.h"

#define UART0_BASE        0x40004000u
#define UART_DATA         (*(volatile uint32_t *)(UART0_BASE + 0x00u))
#define UART_STATE        (*(volatile uint32_t *)(UART0_BASE + 0x04u))
#define UART_CTRL         (*(volatile uint32_t *)(UART0_BASE + 0x08u))
#define UART_INTSTATUS    (*(volatile uint32_t *)(UART0_BASE + 0x0Cu))
#define UART_BAUDDIV      (*(volatile uint32_t *)(UART0_BASE + 0x10u))

#define STATE_TXFULL      0x01u
#define STATE_RXFULL      0x02u
#define CTRL_TX_EN        0x01u
#define CTRL_RX_EN        0x02u
#define CTRL_RX_INT_EN    0x08u
#define INT_TX            0x01u
#define INT_RX            0x02u

#define NVIC_ISER0        (*(volatile uint32_t *)0xE000E100u)

#define PCLK_HZ           25000000u
#define BAUD_RATE         115200u

#define RB_SIZE           64u
#define RB_MASK           (RB_SIZE - 1u)
#define XOFF_LEVEL        48u
#define XON_LEVEL         16u

static volatile uint8_t  rb[RB_SIZE];
static volatile uint32_t rb_head;      /* written by the ISR */
static volatile uint32_t rb_tail;      /* written by thread mode */
static volatile bool     xoff_active;
static volatile uint32_t overruns;
static uint32_t          held_bytes;   /* line + '\n' from last getline */

static inline uint32_t rb_fill(void)
{
    return (rb_head - rb_tail) & RB_MASK;
}

static void uart_putc(uint8_t c)
{
    while (UART_STATE & STATE_TXFULL) {
    }
    UART_DATA = c;
}

void uart_flow_init(void)
{
    UART_CTRL = 0u;
    UART_INTSTATUS = INT_TX | INT_RX;

    rb_head = 0u;
    rb_tail = 0u;
    xoff_active = false;
    overruns = 0u;
    held_bytes = 0u;

    UART_BAUDDIV = PCLK_HZ / BAUD_RATE;
    UART_CTRL = CTRL_TX_EN | CTRL_RX_EN | CTRL_RX_INT_EN;
    NVIC_ISER0 = 1u << 0;
}

void UART0RX_Handler(void)
{
    UART_INTSTATUS = INT_RX;

    while (UART_STATE & STATE_RXFULL) {
        uint8_t c = (uint8_t)UART_DATA;
        uint32_t next = (rb_head + 1u) & RB_MASK;

        if (next == rb_tail) {
            overruns++;
            continue;
        }
        rb[rb_head] = c;
        rb_head = next;

        if (!xoff_active && rb_fill() >= XOFF_LEVEL) {
            uart_putc((uint8_t)UART_FLOW_XOFF);
            xoff_active = true;
        }
    }
}

int uart_flow_getline(char *buf, size_t size)
{
    uint32_t tail = rb_tail;
    uint32_t fill = rb_fill();
    size_t n = 0u;

    for (uint32_t i = 0u; i < fill; i++) {
        char c = (char)rb[(tail + i) & RB_MASK];
        if (c == '\n') {
            buf[n] = '\0';
            held_bytes = i + 1u;
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
    uint32_t primask;

    if (held_bytes == 0u) {
        return;
    }

    __asm volatile("mrs %0, primask" : "=r"(primask));
    __asm volatile("cpsid i" ::: "memory");

    rb_tail = (rb_tail + held_bytes) & RB_MASK;
    held_bytes = 0u;

    if (xoff_active && rb_fill() <= XON_LEVEL) {
        uart_putc((uint8_t)UART_FLOW_XON);
        xoff_active = false;
    }

    __asm volatile("msr primask, %0" :: "r"(primask) : "memory");
}

uint32_t uart_flow_overruns(void)
{
    return overruns;
}
