/* defect: uart_write restarts the idle transmitter (enables TXIE, writes DATA, then advances tx_tail) without masking interrupts, so the TX interrupt raised by that DATA write can run the handler before tx_tail is advanced and the same byte is sent again (tx_tail can then run past tx_head).
 * breaks: "Every byte `uart_write` accepts is transmitted exactly once and in order, without further calls to `uart_write`, whatever the moment at which the transmit interrupt arrives."
 * must_fail: tx_kick_race_free, ring_index_ownership, scenario_every_byte_once_in_order
 */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- CMSDK APB UART0 (MPS2 AN385) ---- */
#define UART0_BASE          0x40004000u
#define UART0_DATA          (*(volatile uint32_t *)(UART0_BASE + 0x00u))
#define UART0_STATE         (*(volatile uint32_t *)(UART0_BASE + 0x04u))
#define UART0_CTRL          (*(volatile uint32_t *)(UART0_BASE + 0x08u))
#define UART0_INTSTATUS     (*(volatile uint32_t *)(UART0_BASE + 0x0Cu))
#define UART0_INTCLEAR      (*(volatile uint32_t *)(UART0_BASE + 0x0Cu))
#define UART0_BAUDDIV       (*(volatile uint32_t *)(UART0_BASE + 0x10u))

#define UART_STATE_TXFULL   (1u << 0)
#define UART_CTRL_TX_EN     (1u << 0)
#define UART_CTRL_TX_IRQ_EN (1u << 2)
#define UART_INT_TX         (1u << 0)

#define PCLK_HZ             25000000u
#define UART_BAUD           115200u

/* AN385 interrupt map: IRQ0 = UART0 RX, IRQ1 = UART0 TX */
#define UART0_TX_IRQn       1u

/* ---- NVIC, architectural addresses in the SCS ---- */
#define NVIC_ISER0          (*(volatile uint32_t *)0xE000E100u)
#define NVIC_ICER0          (*(volatile uint32_t *)0xE000E180u)
#define NVIC_ICPR0          (*(volatile uint32_t *)0xE000E280u)

/* ---- PRIMASK helpers ---- */
static inline uint32_t irq_save(void)
{
    uint32_t primask;
    __asm volatile ("mrs %0, primask\n\t"
                    "cpsid i"
                    : "=r" (primask) : : "memory");
    return primask;
}

static inline void irq_restore(uint32_t primask)
{
    __asm volatile ("msr primask, %0" : : "r" (primask) : "memory");
}

/* ---- 64-byte single-producer / single-consumer transmit ring ----
 * tx_head is written only by uart_write (thread mode), tx_tail by the
 * handler, or by uart_write while interrupts are masked.  Both are
 * free-running counters; (head - tail) is the fill level. */
#define TX_RING_SIZE        64u
#define TX_RING_MASK        (TX_RING_SIZE - 1u)

static volatile uint8_t  tx_ring[TX_RING_SIZE];
static volatile uint32_t tx_head;
static volatile uint32_t tx_tail;

void uart_tx_init(void)
{
    NVIC_ICER0 = 1u << UART0_TX_IRQn;
    UART0_CTRL = 0u;
    tx_head = 0u;
    tx_tail = 0u;
    UART0_BAUDDIV = PCLK_HZ / UART_BAUD;            /* 217 */
    UART0_INTCLEAR = 0xFu;                          /* drop stale status */
    UART0_CTRL = UART_CTRL_TX_EN;                   /* TX irq enabled on demand */
    NVIC_ICPR0 = 1u << UART0_TX_IRQn;
    NVIC_ISER0 = 1u << UART0_TX_IRQn;
}

void UARTTX0_Handler(void)
{
    UART0_INTCLEAR = UART_INT_TX;

    while ((UART0_STATE & UART_STATE_TXFULL) == 0u) {
        uint32_t tail = tx_tail;
        if (tail == tx_head) {
            /* Nothing left: stop TX interrupts until uart_write restarts. */
            UART0_CTRL &= ~UART_CTRL_TX_IRQ_EN;
            UART0_INTCLEAR = UART_INT_TX;
            return;
        }
        UART0_DATA = tx_ring[tail & TX_RING_MASK];
        tx_tail = tail + 1u;
    }
}

size_t uart_write(const void *buf, size_t len)
{
    const uint8_t *src = (const uint8_t *)buf;
    uint32_t head = tx_head;
    uint32_t space = TX_RING_SIZE - (head - tx_tail);
    size_t n = (len < space) ? len : (size_t)space;
    size_t i;

    if (n == 0u) {
        return 0u;
    }

    for (i = 0u; i < n; i++) {
        tx_ring[(head + (uint32_t)i) & TX_RING_MASK] = src[i];
    }
    tx_head = head + (uint32_t)n;                   /* publish */

    /* Restart an idle transmitter. */
    if ((UART0_CTRL & UART_CTRL_TX_IRQ_EN) == 0u) {
        UART0_CTRL |= UART_CTRL_TX_IRQ_EN;
        if ((UART0_STATE & UART_STATE_TXFULL) == 0u) {
            /* Buffer empty: enabling alone raises nothing, so prime it. */
            uint32_t tail = tx_tail;
            UART0_DATA = tx_ring[tail & TX_RING_MASK];
            tx_tail = tail + 1u;
        }
        /* else: the byte in flight will raise the TX interrupt on draining */
    }

    return n;
}

/* ---- sleeping helpers (check and WFI with interrupts masked: no lost wakeup) ---- */
static void sleep_while_ring_full(void)
{
    uint32_t primask = irq_save();
    while ((tx_head - tx_tail) >= TX_RING_SIZE) {
        __asm volatile ("wfi" ::: "memory");
        irq_restore(primask);           /* let the pending handler run */
        __asm volatile ("isb" ::: "memory");
        (void)irq_save();
    }
    irq_restore(primask);
}

static void sleep_until_drained(void)
{
    uint32_t primask = irq_save();
    while (tx_head != tx_tail) {
        __asm volatile ("wfi" ::: "memory");
        irq_restore(primask);
        __asm volatile ("isb" ::: "memory");
        (void)irq_save();
    }
    irq_restore(primask);
}

static size_t send_all(const char *data, size_t len)
{
    size_t sent = 0u;

    while (sent < len) {
        size_t n = uart_write(data + sent, len - sent);
        sent += n;
        if (sent < len) {
            sleep_while_ring_full();
        }
    }
    return sent;
}

#define NUM_LINES   16
#define LINE_LEN    (sizeof("line 01 of 16: abcdefghijklmnopqrstuvwxyz\r\n") - 1u)

static char text[NUM_LINES * LINE_LEN + 1u];

int main(void)
{
    size_t len = 0u;
    size_t total;
    char done[48];
    int dlen;
    int i;

    uart_tx_init();

    for (i = 1; i <= NUM_LINES; i++) {
        len += (size_t)snprintf(&text[len], sizeof(text) - len,
                                "line %02d of %02d: abcdefghijklmnopqrstuvwxyz\r\n",
                                i, NUM_LINES);
    }

    total = send_all(text, len);

    dlen = snprintf(done, sizeof(done), "uart tx done: %u bytes\r\n",
                    (unsigned)total);
    (void)send_all(done, (size_t)dlen);

    sleep_until_drained();
    exit(0);
}
