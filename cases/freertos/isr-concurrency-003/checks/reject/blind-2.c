/* defect: the handler passes NULL for pxHigherPriorityTaskWoken and never calls portYIELD_FROM_ISR, so the unblocked reader task only runs at the next tick instead of when the interrupt returns.
 * breaks: "The task must be woken as soon as any byte is available, must not spend CPU time while nothing arrives, and must run as soon as the interrupt that delivered data returns."
 * must_fail: isr_requests_context_switch
 */
/*
 * FreeRTOS line reader: UART0 RX interrupt -> stream buffer -> task.
 * Target: QEMU mps2-an385, Cortex-M3 @ 25 MHz, FreeRTOS V11.1.0 (ARM_CM3).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"
#include "stream_buffer.h"

typedef struct {
    volatile uint32_t DATA;      /* 0x00 */
    volatile uint32_t STATE;     /* 0x04 */
    volatile uint32_t CTRL;      /* 0x08 */
    volatile uint32_t INTSTATUS; /* 0x0C, write: INTCLEAR */
    volatile uint32_t BAUDDIV;   /* 0x10 */
} cmsdk_uart_t;

#define UART0               ((cmsdk_uart_t *)0x40004000UL)

#define STATE_TXFULL        0x01UL
#define STATE_RXFULL        0x02UL
#define CTRL_TXEN           0x01UL
#define CTRL_RXEN           0x02UL
#define CTRL_RXIRQEN        0x08UL
#define INT_RX              0x02UL

/* NVIC (no CMSIS available) */
#define NVIC_ISER           ((volatile uint32_t *)0xE000E100UL)
#define NVIC_IPR            ((volatile uint8_t *)0xE000E400UL)
#define UART0RX_IRQ         0

#define NVIC_PRIO_SHIFT     (8 - configPRIO_BITS)
/* One step less urgent than the highest priority allowed to call FromISR. */
#define UART0RX_PRIO        ((configLIBRARY_MAX_SYSCALL_INTERRUPT_PRIORITY + 1) << NVIC_PRIO_SHIFT)

#define STREAM_BYTES        128
#define LINE_LEN_MAX        64
#define PENDING_TIMEOUT     pdMS_TO_TICKS(200)

static StreamBufferHandle_t uart_stream = NULL;
static volatile uint32_t uart_overflow_count = 0;

static void put_char(char c)
{
    while ((UART0->STATE & STATE_TXFULL) != 0UL) {
        /* poll */
    }
    UART0->DATA = (uint8_t)c;
}

static void put_str(const char *s)
{
    for (; *s; ++s) {
        put_char(*s);
    }
}

void UART0RX_IRQHandler(void)
{
    /* Acknowledge first; a byte arriving during the drain re-raises it. */
    UART0->INTSTATUS = INT_RX;

    while ((UART0->STATE & STATE_RXFULL) != 0UL) {
        const uint8_t b = (uint8_t)UART0->DATA;
        size_t sent = xStreamBufferSendFromISR(uart_stream, &b, sizeof(b), NULL);

        if (sent == 0U) {
            uart_overflow_count++;
        }
    }
}

typedef struct {
    char text[LINE_LEN_MAX + 1];
    size_t len;
} line_t;

static void line_emit(line_t *ln)
{
    ln->text[ln->len] = '\0';
    put_str("line: ");
    put_str(ln->text);
    put_str("\r\n");
    ln->len = 0;
}

static void line_feed(line_t *ln, char c)
{
    if (c == '\r' || c == '\n') {
        if (ln->len != 0U) {
            line_emit(ln);
        }
        return;
    }
    if (ln->len < LINE_LEN_MAX) {
        ln->text[ln->len++] = c;
    }
}

static void reader_task(void *arg)
{
    line_t ln = { .len = 0 };

    (void)arg;
    put_str("line reader ready\r\n");

    for (;;) {
        uint8_t c;
        const bool pending = (ln.len != 0U);
        size_t got = xStreamBufferReceive(uart_stream, &c, 1,
                                          pending ? PENDING_TIMEOUT : portMAX_DELAY);

        if (got == 1U) {
            line_feed(&ln, (char)c);
        } else if (pending) {
            ln.len = 0;
            put_str("line timeout\r\n");
        }
    }
}

static void fatal(void)
{
    portDISABLE_INTERRUPTS();
    for (;;) {
    }
}

int main(void)
{
    /* UART: 115200 baud, TX + RX, RX interrupt. */
    UART0->CTRL = 0;
    UART0->BAUDDIV = configCPU_CLOCK_HZ / 115200UL;
    UART0->CTRL = CTRL_TXEN | CTRL_RXEN | CTRL_RXIRQEN;

    uart_stream = xStreamBufferCreate(STREAM_BYTES, 1);
    if (uart_stream == NULL) {
        fatal();
    }

    if (xTaskCreate(reader_task, "reader", 2 * configMINIMAL_STACK_SIZE,
                    NULL, configMAX_PRIORITIES - 1, NULL) != pdPASS) {
        fatal();
    }

    NVIC_IPR[UART0RX_IRQ] = (uint8_t)UART0RX_PRIO;
    NVIC_ISER[UART0RX_IRQ / 32] = 1UL << (UART0RX_IRQ % 32);

    vTaskStartScheduler();
    fatal();
    return 0;
}
