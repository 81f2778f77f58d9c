/* defect: uart0_puts emits the newline before the carriage return ("\n\r") instead of the required "\r\n".
 * breaks: "`void uart0_puts(const char *s)`: send a NUL-terminated string, sending every `\n` as `\r\n`."
 * must_fail: puts_sends_cr_before_lf, scenario_newline_sent_as_crlf
 */
#include <stdint.h>
#include <stdlib.h>

#define UART0_BASE        0x40004000u
#define UART0_DATA        (*(volatile uint32_t *)(UART0_BASE + 0x00u))
#define UART0_STATE       (*(volatile uint32_t *)(UART0_BASE + 0x04u))
#define UART0_CTRL        (*(volatile uint32_t *)(UART0_BASE + 0x08u))
#define UART0_BAUDDIV     (*(volatile uint32_t *)(UART0_BASE + 0x10u))

#define UART_STATE_TXFULL (1u << 0)
#define UART_CTRL_TXEN    (1u << 0)

#define UART_PCLK_HZ      25000000u

void uart0_init(uint32_t baud)
{
    uint32_t div = UART_PCLK_HZ / baud;

    if (div < 16u) {
        div = 16u;
    }
    UART0_CTRL = 0u;
    UART0_BAUDDIV = div;
    UART0_CTRL = UART_CTRL_TXEN;
}

void uart0_putc(char c)
{
    while (UART0_STATE & UART_STATE_TXFULL) {
    }
    UART0_DATA = (uint32_t)(uint8_t)c;
}

void uart0_puts(const char *s)
{
    for (; *s != '\0'; s++) {
        uart0_putc(*s);
        if (*s == '\n') {
            uart0_putc('\r');
        }
    }
}

int main(void)
{
    uart0_init(115200u);

    uart0_puts("uart0 ready\n");
    uart0_puts("line 1 of 2\n");
    uart0_puts("line 2 of 2\n");

    while (UART0_STATE & UART_STATE_TXFULL) {
    }

    exit(0);
}
