/* defect: XOFF is sent whenever the fill level reaches exactly 48, without checking
 * the outstanding mark, so a refill past 48 after a partial drain sends a second XOFF.
 * breaks: "Never send two XOFFs without an XON between them, never send XON without an outstanding XOFF, and send nothing else."
 * must_fail: scenario_one_xoff_one_xon_per_cycle, scenario_refill_past_high_water_keeps_one_xoff
 */
#include <stddef.h>
#include <stdint.h>
#include "uart_flow.h"

struct cmsdk_uart {
    volatile uint32_t data;
    volatile uint32_t state;
    volatile uint32_t ctrl;
    volatile uint32_t intstatus;
    volatile uint32_t bauddiv;
};

#define uart0        ((struct cmsdk_uart *)0x40004000u)
#define NVIC_ISER0   (*(volatile uint32_t *)0xE000E100u)

enum {
    RING_LEN   = 64,
    HIGH_MARK  = 48,
    LOW_MARK   = 16,
};

struct rx_ring {
    uint8_t           data[RING_LEN];
    volatile uint16_t in;      /* free-running, handler only */
    volatile uint16_t out;     /* free-running, thread only */
};

static struct rx_ring ring;
static volatile uint8_t  xoff_pending;
static volatile uint32_t n_overruns;
static uint16_t          next_out;
static uint8_t           have_line;

static inline uint16_t fill_level(void)
{
    return (uint16_t)(ring.in - ring.out);
}

static void send_ctl(uint8_t c)
{
    while (uart0->state & 1u) {
    }
    uart0->data = c;
}

void uart_flow_init(void)
{
    uart0->ctrl = 0;
    uart0->intstatus = 3u;

    ring.in = 0;
    ring.out = 0;
    xoff_pending = 0;
    n_overruns = 0;
    have_line = 0;

    uart0->bauddiv = 25000000u / 115200u;
    uart0->ctrl = (1u << 0) | (1u << 1) | (1u << 3);
    NVIC_ISER0 = 1u;
}

void UART0RX_Handler(void)
{
    uart0->intstatus = 2u;

    while (uart0->state & 2u) {
        uint8_t c = (uint8_t)uart0->data;

        if (fill_level() >= RING_LEN) {
            n_overruns++;
            continue;
        }
        ring.data[ring.in % RING_LEN] = c;
        ring.in = (uint16_t)(ring.in + 1u);

        if (fill_level() == HIGH_MARK) {
            send_ctl(UART_FLOW_XOFF);
            xoff_pending = 1;
        }
    }
}

int uart_flow_getline(char *buf, size_t size)
{
    uint16_t pos = ring.out;
    uint16_t end = ring.in;
    size_t len = 0;

    while (pos != end) {
        uint8_t c = ring.data[pos % RING_LEN];
        pos = (uint16_t)(pos + 1u);
        if (c == '\n') {
            buf[len] = '\0';
            next_out = pos;
            have_line = 1;
            return (int)len;
        }
        if (len < size - 1u) {
            buf[len++] = (char)c;
        }
    }
    return -1;
}

void uart_flow_release(void)
{
    if (!have_line) {
        return;
    }
    have_line = 0;

    __asm volatile("cpsid i" ::: "memory");
    ring.out = next_out;
    if (xoff_pending && fill_level() <= LOW_MARK) {
        send_ctl(UART_FLOW_XON);
        xoff_pending = 0;
    }
    __asm volatile("cpsie i" ::: "memory");
}

uint32_t uart_flow_overruns(void)
{
    return n_overruns;
}
