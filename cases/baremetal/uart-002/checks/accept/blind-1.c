#include <stdint.h>
#include <stdlib.h>

#define UART0_BASE        0x40004000u
#define UART0_DATA        (*(volatile uint32_t *)(UART0_BASE + 0x00u))
#define UART0_STATE       (*(volatile uint32_t *)(UART0_BASE + 0x04u))
#define UART0_CTRL        (*(volatile uint32_t *)(UART0_BASE + 0x08u))
#define UART0_INTSTATUS   (*(volatile uint32_t *)(UART0_BASE + 0x0Cu))
#define UART0_BAUDDIV     (*(volatile uint32_t *)(UART0_BASE + 0x10u))

#define UART_STATE_TXFULL (1u << 0)
#define UART_CTRL_TXEN    (1u << 0)

#define UART_PCLK_HZ      25000000u
#define UART_BAUDDIV_MIN  16u

void uart0_init(uint32_t baud)
{
    uint32_t div;

    if (baud == 0u) {
        baud = 115200u;
    }
    div = UART_PCLK_HZ / baud;
    if (div < UART_BAUDDIV_MIN) {
        div = UART_BAUDDIV_MIN;
    }

    UART0_CTRL = 0u;              /* disable while configuring, no interrupts */
    UART0_INTSTATUS = 0xFu;       /* clear any stale interrupt flags */
    UART0_BAUDDIV = div;
    UART0_CTRL = UART_CTRL_TXEN;  /* TX only, RX and all interrupts off */
}

void uart0_putc(char c)
{
    while (UART0_STATE & UART_STATE_TXFULL) {
        /* wait until the transmitter can take another byte */
    }
    UART0_DATA = (uint32_t)(uint8_t)c;
}

void uart0_puts(const char *s)
{
    while (*s != '\0') {
        if (*s == '\n') {
            uart0_putc('\r');
        }
        uart0_putc(*s);
        s++;
    }
}

int main(void)
{
    uart0_init(115200u);

    uart0_puts("uart0 ready\n");
    uart0_puts("line 1 of 2\n");
    uart0_puts("line 2 of 2\n");

    /* let the last byte leave the holding register before ending */
    while (UART0_STATE & UART_STATE_TXFULL) {
    }

    exit(0);
}
