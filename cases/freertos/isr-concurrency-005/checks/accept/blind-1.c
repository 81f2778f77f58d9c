/* Pulse counter front end: timer0 bursts -> queue -> consumer task.
 * FreeRTOS V11.1.0, QEMU mps2-an385 (Cortex-M3, 25 MHz).
 */
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

#include "FreeRTOS.h"
#include "task.h"
#include "queue.h"

/* ---- CMSDK APB UART0 ---------------------------------------------------- */
#define UART0_BASE      0x40004000u
#define UART0_DATA      (*(volatile uint32_t *)(UART0_BASE + 0x00u))
#define UART0_STATE     (*(volatile uint32_t *)(UART0_BASE + 0x04u))
#define UART0_CTRL      (*(volatile uint32_t *)(UART0_BASE + 0x08u))
#define UART0_BAUDDIV   (*(volatile uint32_t *)(UART0_BASE + 0x10u))
#define UART_STATE_TXFULL  (1u << 0)
#define UART_STATE_RXFULL  (1u << 1)
#define UART_CTRL_TXEN     (1u << 0)
#define UART_CTRL_RXEN     (1u << 1)

/* ---- CMSDK APB timer0 ---------------------------------------------------- */
#define TIMER0_BASE     0x40000000u
#define TIMER0_CTRL     (*(volatile uint32_t *)(TIMER0_BASE + 0x00u))
#define TIMER0_VALUE    (*(volatile uint32_t *)(TIMER0_BASE + 0x04u))
#define TIMER0_RELOAD   (*(volatile uint32_t *)(TIMER0_BASE + 0x08u))
#define TIMER0_INTCLR   (*(volatile uint32_t *)(TIMER0_BASE + 0x0Cu))
#define TIMER_CTRL_EN      (1u << 0)
#define TIMER_CTRL_IRQEN   (1u << 3)

/* ---- NVIC ---------------------------------------------------------------- */
#define TIMER0_IRQn     8u
#define NVIC_ISER0      (*(volatile uint32_t *)0xE000E100u)
#define NVIC_ICER0      (*(volatile uint32_t *)0xE000E180u)
#define NVIC_ICPR0      (*(volatile uint32_t *)0xE000E280u)
#define NVIC_IPR_BYTE(n) (*(volatile uint8_t *)(0xE000E400u + (n)))

#define CPU_HZ          25000000u
#define BAUD            115200u
#define EVENT_PERIOD_US 50u
#define TIMER0_RELOAD_VALUE ((CPU_HZ / 1000000u) * EVENT_PERIOD_US - 1u) /* 1249 */

/* Timer0 priority 6 of 0..7: below (numerically above) the syscall limit 5,
 * so the FromISR API may be used from its handler. */
#define TIMER0_PRIORITY ((configLIBRARY_MAX_SYSCALL_INTERRUPT_PRIORITY + 1u) \
                         << (8u - configPRIO_BITS))

#define QUEUE_LENGTH    8u
#define BURST_MAX       1000u
#define CMD_LINE_MAX        64u

#define CONSUMER_PRIORITY (tskIDLE_PRIORITY + 3u)
#define COMMAND_PRIORITY  (tskIDLE_PRIORITY + 1u)

static QueueHandle_t event_queue;
static TaskHandle_t command_task_handle;

/* Burst state shared with the ISR. */
static volatile uint32_t burst_target;   /* n */
static volatile uint32_t burst_produced; /* written by the ISR only */
static volatile uint32_t burst_dropped;  /* written by the ISR only */
static volatile bool     burst_finished; /* ISR produced all n */
static volatile uint32_t burst_consumed; /* written by the consumer only */

/* ---------------------------------------------------------------------- */

static void uart_init(void)
{
    UART0_CTRL = 0u;
    UART0_BAUDDIV = CPU_HZ / BAUD; /* 217 */
    UART0_CTRL = UART_CTRL_TXEN | UART_CTRL_RXEN;
}

static void uart_putc(char c)
{
    while (UART0_STATE & UART_STATE_TXFULL) {
    }
    UART0_DATA = (uint32_t)(uint8_t)c;
}

static void uart_puts(const char *s)
{
    while (*s != '\0') {
        uart_putc(*s++);
    }
}

static void uart_put_u32(uint32_t v)
{
    char buf[11];
    size_t i = sizeof buf;
    buf[--i] = '\0';
    do {
        buf[--i] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0u);
    uart_puts(&buf[i]);
}

static void uart_newline(void)
{
    uart_puts("\r\n");
}

/* Blocks (yielding the CPU between polls) until a byte arrives. */
static char uart_getc(void)
{
    while ((UART0_STATE & UART_STATE_RXFULL) == 0u) {
        vTaskDelay(1);
    }
    return (char)(UART0_DATA & 0xFFu);
}

/* Reads one LF-terminated line, drops CRs.  Returns false if the line was
 * too long (the rest of it is consumed). */
static bool read_line(char *buf, size_t size)
{
    size_t len = 0u;
    bool overflow = false;
    for (;;) {
        char c = uart_getc();
        if (c == '\n') {
            break;
        }
        if (c == '\r') {
            continue;
        }
        if (len + 1u < size) {
            buf[len++] = c;
        } else {
            overflow = true;
        }
    }
    buf[len] = '\0';
    return !overflow;
}

/* "burst <n>" with n in 1..1000, nothing else on the line. */
static bool parse_burst(const char *line, uint32_t *n_out)
{
    static const char keyword[] = "burst ";
    for (size_t i = 0u; i < sizeof keyword - 1u; i++) {
        if (line[i] != keyword[i]) {
            return false;
        }
    }
    const char *p = line + sizeof keyword - 1u;
    if (*p < '0' || *p > '9') {
        return false;
    }
    uint32_t n = 0u;
    while (*p >= '0' && *p <= '9') {
        n = n * 10u + (uint32_t)(*p - '0');
        if (n > BURST_MAX) {
            return false;
        }
        p++;
    }
    if (*p != '\0' || n < 1u) {
        return false;
    }
    *n_out = n;
    return true;
}

/* ---------------------------------------------------------------------- */

void TIMER0_IRQHandler(void)
{
    BaseType_t woken = pdFALSE;

    TIMER0_INTCLR = 1u;

    if (burst_produced < burst_target) {
        uint32_t event = burst_produced + 1u;
        burst_produced = event;
        if (xQueueSendFromISR(event_queue, &event, &woken) != pdPASS) {
            burst_dropped++;            /* queue full: drop, never wait */
        }
        if (event == burst_target) {
            TIMER0_CTRL = 0u;           /* the n-th event: stop the timer */
            burst_finished = true;
            vTaskNotifyGiveFromISR(command_task_handle, &woken);
        }
    }

    portYIELD_FROM_ISR(woken);
}

static void timer0_start_burst(void)
{
    TIMER0_CTRL = 0u;
    TIMER0_INTCLR = 1u;
    NVIC_ICPR0 = 1u << TIMER0_IRQn;
    TIMER0_RELOAD = TIMER0_RELOAD_VALUE;
    TIMER0_VALUE = TIMER0_RELOAD_VALUE;
    TIMER0_CTRL = TIMER_CTRL_EN | TIMER_CTRL_IRQEN;
}

/* ---------------------------------------------------------------------- */

static void consumer_task(void *arg)
{
    (void)arg;
    for (;;) {
        uint32_t event;
        if (xQueueReceive(event_queue, &event, portMAX_DELAY) == pdPASS) {
            uart_puts("event ");
            uart_put_u32(event);
            uart_newline();
            vTaskDelay(1);              /* handling is slow */
            burst_consumed++;
            xTaskNotifyGive(command_task_handle);
        }
    }
}

static void command_task(void *arg)
{
    (void)arg;
    char line[CMD_LINE_MAX];

    for (;;) {
        uint32_t n;
        bool fits = read_line(line, sizeof line);
        if (!fits || !parse_burst(line, &n)) {
            uart_puts("error");
            uart_newline();
            continue;
        }

        /* Fresh counters; the timer is stopped so the ISR is idle. */
        (void)ulTaskNotifyTake(pdTRUE, 0);
        burst_produced = 0u;
        burst_dropped = 0u;
        burst_consumed = 0u;
        burst_finished = false;
        burst_target = n;
        timer0_start_burst();

        /* Woken by the ISR at the end of production and by the consumer
         * after each handled event. */
        while (!(burst_finished &&
                 burst_consumed + burst_dropped == burst_produced)) {
            (void)ulTaskNotifyTake(pdTRUE, portMAX_DELAY);
        }

        uart_puts("burst done: produced ");
        uart_put_u32(burst_produced);
        uart_puts(" consumed ");
        uart_put_u32(burst_consumed);
        uart_puts(" dropped ");
        uart_put_u32(burst_dropped);
        uart_newline();
    }
}

/* ---------------------------------------------------------------------- */

static void halt(void)
{
    __asm volatile ("cpsid i" ::: "memory");
    for (;;) {
    }
}

int main(void)
{
    uart_init();

    TIMER0_CTRL = 0u;
    TIMER0_INTCLR = 1u;
    NVIC_IPR_BYTE(TIMER0_IRQn) = (uint8_t)TIMER0_PRIORITY;
    NVIC_ICPR0 = 1u << TIMER0_IRQn;

    event_queue = xQueueCreate(QUEUE_LENGTH, sizeof(uint32_t));
    if (event_queue == NULL) {
        uart_puts("setup failed");
        uart_newline();
        halt();
    }
    if (xTaskCreate(command_task, "cmd", configMINIMAL_STACK_SIZE * 2u, NULL,
                    COMMAND_PRIORITY, &command_task_handle) != pdPASS) {
        uart_puts("setup failed");
        uart_newline();
        halt();
    }
    if (xTaskCreate(consumer_task, "cons", configMINIMAL_STACK_SIZE * 2u, NULL,
                    CONSUMER_PRIORITY, NULL) != pdPASS) {
        uart_puts("setup failed");
        uart_newline();
        halt();
    }

    NVIC_ISER0 = 1u << TIMER0_IRQn;
    vTaskStartScheduler();

    halt();   /* only reached if the scheduler could not start */
    return 0;
}
