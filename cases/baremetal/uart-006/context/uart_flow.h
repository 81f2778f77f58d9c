/* uart_flow.h - UART0 receive path with XON/XOFF flow control.
 * You implement these functions in src/main.c; the board's main() calls them. */
#ifndef UART_FLOW_H
#define UART_FLOW_H

#include <stddef.h>
#include <stdint.h>

#define UART_FLOW_XON  0x11u   /* sent to resume the sender */
#define UART_FLOW_XOFF 0x13u   /* sent to pause the sender */

/* Set up UART0 and its receive interrupt; the ring starts empty. */
void uart_flow_init(void);

/* UART0 receive interrupt handler (external interrupt 0). */
void UART0RX_Handler(void);

/* If the ring holds a complete line (bytes up to a '\n'), copy the line
 * without its '\n' into buf, NUL-terminated, and return its length (0 for
 * an empty line). The line stays in the ring. Otherwise return -1.
 * size is always at least 80. */
int uart_flow_getline(char *buf, size_t size);

/* Remove from the ring the line that the last uart_flow_getline() returned,
 * its '\n' included. Called only after uart_flow_getline() returned >= 0. */
void uart_flow_release(void);

/* Number of received bytes discarded because the ring was full. */
uint32_t uart_flow_overruns(void);

#endif
