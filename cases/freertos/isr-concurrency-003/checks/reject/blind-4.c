/* defect: UART0RX_IRQHandler drains the data register first and writes INTCLEAR only afterwards, so a byte that arrives between the last RX-full test and the clear loses its interrupt and reception stalls for good (found by the UART scenario runs; moved from accept/blind-1.c).
 * breaks: "The task must be woken as soon as any byte is available"
 * must_fail: L2, rx_interrupt_cleared_before_drain
 */
/*
 * UART0 line reader for QEMU mps2-an385 (Cortex-M3) on FreeRTOS V11.1.0.
 *
 * UART0RX_IRQHandler pushes every received byte into a stream buffer; a
 * single reader task pulls bytes out, assembles lines and echoes them.
 */
#include <stddef.h>
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"
#include "stream_buffer.h"

/* ---- CMSDK APB UART0 ---------------------------------------------------- */
#define UART0_BASE          0x40004000UL
#define UART0_DATA          (*(volatile uint32_t *)(UART0_BASE + 0x00UL))
#define UART0_STATE         (*(volatile uint32_t *)(UART0_BASE + 0x04UL))
#define UART0_CTRL          (*(volatile uint32_t *)(UART0_BASE + 0x08UL))
#define UART0_INTCLEAR      (*(volatile uint32_t *)(UART0_BASE + 0x0CUL))
#define UART0_BAUDDIV       (*(volatile uint32_t *)(UART0_BASE + 0x10UL))

#define UART_STATE_TX_FULL  (1UL << 0)
#define UART_STATE_RX_FULL  (1UL << 1)
#define UART_CTRL_TX_EN     (1UL << 0)
#define UART_CTRL_RX_EN     (1UL << 1)
#define UART_CTRL_RX_INT_EN (1UL << 3)
#define UART_INT_RX         (1UL << 1)

#define UART_BAUD           115200UL

/* ---- NVIC --------------------------------------------------------------- */
#define NVIC_ISER0          (*(volatile uint32_t *)0xE000E100UL)
#define NVIC_ICPR0          (*(volatile uint32_t *)0xE000E280UL)
#define NVIC_IPR_BYTE(n)    (*(volatile uint8_t *)(0xE000E400UL + (n)))

#define UART0RX_IRQn        0U
/*
 * Lowest priority the NVIC implements (7 << 5 with 3 bits): numerically above
 * configMAX_SYSCALL_INTERRUPT_PRIORITY, so the FromISR API is allowed.
 */
#define UART0RX_IRQ_PRIO    configKERNEL_INTERRUPT_PRIORITY

/* ---- application -------------------------------------------------------- */
#define RX_STREAM_SIZE      128U
#define RX_TRIGGER_LEVEL    1U
#define LINE_MAX_CHARS      64U
#define LINE_TIMEOUT_MS     200U
#define READER_PRIORITY     (tskIDLE_PRIORITY + 2)
#define READER_STACK_WORDS  (configMINIMAL_STACK_SIZE * 2)

static StreamBufferHandle_t rx_stream;
static volatile uint32_t rx_dropped;    /* written only by the ISR */

static void uart_putc(char c)
{
    while (UART0_STATE & UART_STATE_TX_FULL) {
    }
    UART0_DATA = (uint32_t)(uint8_t)c;
}

static void uart_puts(const char *s)
{
    while (*s != '\0') {
        uart_putc(*s++);
    }
}

static void uart_init(void)
{
    UART0_CTRL = 0;
    UART0_BAUDDIV = configCPU_CLOCK_HZ / UART_BAUD;     /* 217 */
    UART0_INTCLEAR = UART_INT_RX;
    UART0_CTRL = UART_CTRL_TX_EN | UART_CTRL_RX_EN | UART_CTRL_RX_INT_EN;
}

static void uart_rx_irq_enable(void)
{
    NVIC_IPR_BYTE(UART0RX_IRQn) = (uint8_t)UART0RX_IRQ_PRIO;
    NVIC_ICPR0 = 1UL << UART0RX_IRQn;
    NVIC_ISER0 = 1UL << UART0RX_IRQn;
}

void UART0RX_IRQHandler(void)
{
    BaseType_t higher_prio_woken = pdFALSE;

    while (UART0_STATE & UART_STATE_RX_FULL) {
        uint8_t byte = (uint8_t)(UART0_DATA & 0xFFU);

        if (xStreamBufferSendFromISR(rx_stream, &byte, 1, &higher_prio_woken) != 1U) {
            rx_dropped++;
        }
    }
    UART0_INTCLEAR = UART_INT_RX;

    portYIELD_FROM_ISR(higher_prio_woken);
}

static void line_reader_task(void *params)
{
    char line[LINE_MAX_CHARS + 1];
    size_t len = 0;
    uint8_t chunk[16];

    (void)params;

    uart_puts("line reader ready\r\n");

    for (;;) {
        /* Block indefinitely when idle; bound the wait while a line is open. */
        TickType_t wait = (len > 0U) ? pdMS_TO_TICKS(LINE_TIMEOUT_MS) : portMAX_DELAY;
        size_t n = xStreamBufferReceive(rx_stream, chunk, sizeof(chunk), wait);

        if (n == 0U) {
            if (len > 0U) {
                len = 0;
                uart_puts("line timeout\r\n");
            }
            continue;
        }

        for (size_t i = 0; i < n; i++) {
            char c = (char)chunk[i];

            if (c == '\r' || c == '\n') {
                if (len > 0U) {
                    line[len] = '\0';
                    uart_puts("line: ");
                    uart_puts(line);
                    uart_puts("\r\n");
                    len = 0;
                }
            } else if (len < LINE_MAX_CHARS) {
                line[len++] = c;
            }
            /* else: line already holds 64 characters, extra ones are dropped */
        }
    }
}

static void halt(void)
{
    taskDISABLE_INTERRUPTS();
    for (;;) {
    }
}

int main(void)
{
    uart_init();

    rx_stream = xStreamBufferCreate(RX_STREAM_SIZE, RX_TRIGGER_LEVEL);
    if (rx_stream == NULL) {
        halt();
    }

    if (xTaskCreate(line_reader_task, "lines", READER_STACK_WORDS, NULL,
                    READER_PRIORITY, NULL) != pdPASS) {
        halt();
    }

    /* Stream buffer exists: the handler may run from now on. */
    uart_rx_irq_enable();

    vTaskStartScheduler();

    /* Only reached if the idle/timer task could not be created. */
    halt();
    return 0;
}
