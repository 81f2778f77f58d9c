/* defect: the XON test uses "below 16" instead of "16 or less", so a release that
 * leaves exactly 16 bytes in the ring does not send XON.
 * breaks: "XON: when `uart_flow_release()` leaves the fill level at 16 or less and an XOFF is outstanding, send XON (`0x11`) once and clear the mark."
 * must_fail: scenario_xoff_at_48_xon_at_16
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "uart_flow.h"

/* UART0 (CMSDK APB UART) */
#define UART0_DATA       (*(volatile uint32_t *)0x40004000u)
#define UART0_STATE      (*(volatile uint32_t *)0x40004004u)
#define UART0_CTRL       (*(volatile uint32_t *)0x40004008u)
#define UART0_INTSTATUS  (*(volatile uint32_t *)0x4000400Cu)
#define UART0_BAUDDIV    (*(volatile uint32_t *)0x40004010u)

#define NVIC_ISER0       (*(volatile uint32_t *)0xE000E100u)

#define RX_RING_SIZE     64u
#define RX_HIGH_WATER    48u
#define RX_LOW_WATER     16u

static volatile uint8_t  rx_ring[RX_RING_SIZE];
static volatile uint32_t rx_put;
static volatile uint32_t rx_get;
static volatile uint32_t rx_level;
static volatile uint32_t rx_overruns;
static volatile uint32_t xoff_sent;
static uint32_t          last_line_bytes;

static void uart0_write(uint8_t b)
{
    while ((UART0_STATE & 0x1u) != 0u) {
        ;
    }
    UART0_DATA = b;
}

static uint32_t enter_critical(void)
{
    uint32_t state;
    __asm volatile("mrs %0, primask" : "=r"(state));
    __asm volatile("cpsid i" ::: "memory");
    return state;
}

static void exit_critical(uint32_t state)
{
    __asm volatile("msr primask, %0" :: "r"(state) : "memory");
}

static void ring_store(uint8_t b)
{
    if (rx_level == RX_RING_SIZE) {
        rx_overruns++;
        return;
    }
    rx_ring[rx_put] = b;
    rx_put = (rx_put + 1u) % RX_RING_SIZE;
    rx_level++;

    if (rx_level >= RX_HIGH_WATER && xoff_sent == 0u) {
        uart0_write((uint8_t)UART_FLOW_XOFF);
        xoff_sent = 1u;
    }
}

void uart_flow_init(void)
{
    UART0_CTRL = 0u;
    UART0_INTSTATUS = 0x3u;

    rx_put = 0u;
    rx_get = 0u;
    rx_level = 0u;
    rx_overruns = 0u;
    xoff_sent = 0u;
    last_line_bytes = 0u;

    UART0_BAUDDIV = 217u;          /* 25 MHz / 115200 */
    UART0_CTRL = 0x0Bu;            /* TX en, RX en, RX int en */
    NVIC_ISER0 = 0x1u;             /* external interrupt 0: UART0 RX */
}

void UART0RX_Handler(void)
{
    UART0_INTSTATUS = 0x2u;
    while ((UART0_STATE & 0x2u) != 0u) {
        ring_store((uint8_t)(UART0_DATA & 0xFFu));
    }
}

int uart_flow_getline(char *buf, size_t size)
{
    uint8_t line[RX_RING_SIZE];
    uint32_t level = rx_level;
    uint32_t idx = rx_get;
    uint32_t len = 0u;

    while (len < level) {
        uint8_t b = rx_ring[idx];
        if (b == (uint8_t)'\n') {
            size_t n = (len < size) ? len : size - 1u;
            memcpy(buf, line, n);
            buf[n] = '\0';
            last_line_bytes = len + 1u;
            return (int)n;
        }
        line[len++] = b;
        idx = (idx + 1u) % RX_RING_SIZE;
    }
    return -1;
}

void uart_flow_release(void)
{
    uint32_t cs;

    if (last_line_bytes == 0u) {
        return;
    }

    cs = enter_critical();
    rx_get = (rx_get + last_line_bytes) % RX_RING_SIZE;
    rx_level -= last_line_bytes;
    last_line_bytes = 0u;

    if (xoff_sent != 0u && rx_level < RX_LOW_WATER) {
        uart0_write((uint8_t)UART_FLOW_XON);
        xoff_sent = 0u;
    }
    exit_critical(cs);
}

uint32_t uart_flow_overruns(void)
{
    return rx_overruns;
}
