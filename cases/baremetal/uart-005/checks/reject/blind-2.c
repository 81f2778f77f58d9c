/* defect: uart_write leaves its critical section with an unconditional "cpsie i" instead of saving and restoring PRIMASK, so a caller that had interrupts disabled returns with them enabled.
 * breaks: "It is called from thread mode only, never from an interrupt handler, possibly with interrupts disabled globally; it must leave the interrupt mask as it found it."
 * must_fail: tx_kick_race_free
 */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>

typedef struct {
    volatile uint32_t DATA;       /* 0x00 */
    volatile uint32_t STATE;      /* 0x04 */
    volatile uint32_t CTRL;       /* 0x08 */
    volatile uint32_t INTSTATUS;  /* 0x0C, write: INTCLEAR */
    volatile uint32_t BAUDDIV;    /* 0x10 */
} cmsdk_uart_t;

#define UART0               ((cmsdk_uart_t *)0x40004000u)

#define STATE_TX_FULL       0x01u
#define CTRL_TX_ENABLE      0x01u
#define CTRL_TX_INTEN       0x04u
#define INT_TX              0x01u

#define UART0TX_IRQ         1u          /* AN385: UARTRX0 = 0, UARTTX0 = 1 */

typedef struct {
    volatile uint32_t ISER[8];          /* 0xE000E100 */
    uint32_t          rsv0[24];
    volatile uint32_t ICER[8];          /* 0xE000E180 */
    uint32_t          rsv1[24];
    volatile uint32_t ISPR[8];          /* 0xE000E200 */
    uint32_t          rsv2[24];
    volatile uint32_t ICPR[8];          /* 0xE000E280 */
} nvic_t;

#define NVIC                ((nvic_t *)0xE000E100u)

#define RING_SIZE           64u

/* Ring state is shared with the handler; thread-mode code only touches it
 * inside a critical section. */
static uint8_t           ring[RING_SIZE];
static volatile uint32_t ring_rd;
static volatile uint32_t ring_wr;
static volatile uint32_t ring_count;

static inline void critical_enter(void)
{
    __asm volatile ("cpsid i" ::: "memory");
}

static inline void critical_exit(void)
{
    __asm volatile ("cpsie i" ::: "memory");
}

void uart_tx_init(void)
{
    NVIC->ICER[0] = 1u << UART0TX_IRQ;

    UART0->CTRL = 0u;
    UART0->BAUDDIV = 25000000u / 115200u;
    UART0->INTSTATUS = 0x0Fu;            /* INTCLEAR everything */

    ring_rd = 0u;
    ring_wr = 0u;
    ring_count = 0u;

    UART0->CTRL = CTRL_TX_ENABLE;

    NVIC->ICPR[0] = 1u << UART0TX_IRQ;
    NVIC->ISER[0] = 1u << UART0TX_IRQ;
}

void UARTTX0_Handler(void)
{
    UART0->INTSTATUS = INT_TX;

    for (;;) {
        if (ring_count == 0u) {
            UART0->CTRL &= ~CTRL_TX_INTEN;
            UART0->INTSTATUS = INT_TX;
            break;
        }
        if (UART0->STATE & STATE_TX_FULL) {
            break;      /* the drain of this byte raises the next interrupt */
        }
        UART0->DATA = ring[ring_rd];
        ring_rd = (ring_rd + 1u) % RING_SIZE;
        ring_count = ring_count - 1u;
    }
}

size_t uart_write(const void *buf, size_t len)
{
    const uint8_t *p = buf;
    size_t accepted = 0u;

    critical_enter();

    while (accepted < len && ring_count < RING_SIZE) {
        ring[ring_wr] = p[accepted++];
        ring_wr = (ring_wr + 1u) % RING_SIZE;
        ring_count = ring_count + 1u;
    }

    if (accepted != 0u && (UART0->CTRL & CTRL_TX_INTEN) == 0u) {
        /* Transmitter idle: enable its interrupt and pend the handler once
         * in software, since enabling with an empty buffer raises nothing.
         */
        UART0->CTRL |= CTRL_TX_INTEN;
        NVIC->ISPR[0] = 1u << UART0TX_IRQ;
    }

    critical_exit();
    return accepted;
}

/* ---- main ---- */

static int ring_has_room(void)  { return ring_count < RING_SIZE; }
static int ring_is_empty(void)  { return ring_count == 0u; }

/* Evaluate the condition with interrupts masked and sleep with WFI; a
 * pending interrupt still wakes the core, then gets serviced on unmask. */
static void sleep_until(int (*cond)(void))
{
    critical_enter();
    while (!cond()) {
        __asm volatile ("wfi");
        __asm volatile ("cpsie i" ::: "memory");
        __asm volatile ("isb");
        __asm volatile ("cpsid i" ::: "memory");
    }
    critical_exit();
}

static size_t stream(const char *s, size_t len)
{
    size_t done = 0u;
    for (;;) {
        size_t want = len - done;
        size_t got = uart_write(s + done, want);
        done += got;
        if (got == want) {
            return done;
        }
        sleep_until(ring_has_room);
    }
}

static size_t put_str(char *dst, const char *s)
{
    size_t n = 0u;
    while (s[n] != '\0') {
        dst[n] = s[n];
        n++;
    }
    return n;
}

static size_t put_uint(char *dst, unsigned v)
{
    char tmp[10];
    size_t n = 0u, i;
    do {
        tmp[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0u);
    for (i = 0u; i < n; i++) {
        dst[i] = tmp[n - 1u - i];
    }
    return n;
}

static char lines[16u * 43u];

int main(void)
{
    char tail[40];
    size_t len = 0u;
    size_t n;
    size_t sent;
    unsigned k;

    uart_tx_init();

    for (k = 1u; k <= 16u; k++) {
        len += put_str(&lines[len], "line ");
        lines[len++] = (char)('0' + k / 10u);
        lines[len++] = (char)('0' + k % 10u);
        len += put_str(&lines[len], " of 16: abcdefghijklmnopqrstuvwxyz\r\n");
    }

    sent = stream(lines, len);

    n = put_str(tail, "uart tx done: ");
    n += put_uint(&tail[n], (unsigned)sent);
    n += put_str(&tail[n], " bytes\r\n");
    (void)stream(tail, n);

    sleep_until(ring_is_empty);
    exit(0);
}
