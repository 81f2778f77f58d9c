/* defect: uart0_putc polls STATE bit 1 (RX buffer full) instead of bit 0 (TX buffer full), so it never waits for the transmitter.
 * breaks: "The transmitter holds a single byte; a byte written while it is still busy is lost."
 * must_fail: tx_full_polled_before_write
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
    volatile uint32_t DATA;       /* 0x00 */
    volatile uint32_t STATE;      /* 0x04 */
    volatile uint32_t CTRL;       /* 0x08 */
    volatile uint32_t INTSTATUS;  /* 0x0C */
    volatile uint32_t BAUDDIV;    /* 0x10 */
} cmsdk_uart_t;

#define UART0 ((cmsdk_uart_t *)0x40004000UL)

enum {
    STATE_TX_FULL = 0x2u,
    CTRL_TX_EN    = 0x1u,
};

static const uint32_t pclk_hz = 25000000UL;

static void uart_wait_tx_ready(cmsdk_uart_t *u)
{
    while ((u->STATE & STATE_TX_FULL) != 0u) {
    }
}

void uart0_init(uint32_t baud)
{
    uint32_t div = (baud != 0u) ? (pclk_hz + baud / 2u) / baud : 16u;
    if (div < 16u) {
        div = 16u;
    }

    UART0->CTRL = 0u;
    UART0->BAUDDIV = div;
    UART0->CTRL = CTRL_TX_EN;
}

void uart0_putc(char c)
{
    uart_wait_tx_ready(UART0);
    UART0->DATA = (uint8_t)c;
}

void uart0_puts(const char *s)
{
    char c;

    if (s == NULL) {
        return;
    }
    while ((c = *s++) != '\0') {
        if (c == '\n') {
            uart0_putc('\r');
            uart0_putc('\n');
        } else {
            uart0_putc(c);
        }
    }
}

static const char *const lines[] = {
    "uart0 ready",
    "line 1 of 2",
    "line 2 of 2",
};

int main(void)
{
    size_t i;

    uart0_init(115200u);

    for (i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        uart0_puts(lines[i]);
        uart0_puts("\n");
    }

    uart_wait_tx_ready(UART0);
    exit(EXIT_SUCCESS);
}
