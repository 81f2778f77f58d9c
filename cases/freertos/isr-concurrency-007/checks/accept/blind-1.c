/* SC-4 shaft encoder event front end: deferred timer0 interrupt handling. */
#include <stdint.h>
#include <stddef.h>
#include "FreeRTOS.h"
#include "task.h"

/* ---- UART0 (CMSDK APB UART) ---- */
#define UART0_BASE      0x40004000UL
#define UART0_DATA      (*(volatile uint32_t *)(UART0_BASE + 0x00))
#define UART0_STATE     (*(volatile uint32_t *)(UART0_BASE + 0x04))
#define UART0_CTRL      (*(volatile uint32_t *)(UART0_BASE + 0x08))
#define UART0_BAUDDIV   (*(volatile uint32_t *)(UART0_BASE + 0x10))
#define UART_STATE_TXFULL  (1UL << 0)
#define UART_STATE_RXFULL  (1UL << 1)
#define UART_CTRL_TXEN     (1UL << 0)
#define UART_CTRL_RXEN     (1UL << 1)

/* ---- timer0 (CMSDK APB timer) ---- */
#define TIMER0_BASE     0x40000000UL
#define TIMER0_CTRL     (*(volatile uint32_t *)(TIMER0_BASE + 0x00))
#define TIMER0_VALUE    (*(volatile uint32_t *)(TIMER0_BASE + 0x04))
#define TIMER0_RELOAD   (*(volatile uint32_t *)(TIMER0_BASE + 0x08))
#define TIMER0_INTCLEAR (*(volatile uint32_t *)(TIMER0_BASE + 0x0C))
#define TIMER_CTRL_EN      (1UL << 0)
#define TIMER_CTRL_IRQEN   (1UL << 3)

/* ---- NVIC ---- */
#define NVIC_ISER0      (*(volatile uint32_t *)0xE000E100UL)
#define NVIC_IPR_IRQ8   (*(volatile uint8_t  *)0xE000E408UL)
#define TIMER0_IRQN     8U
#define NVIC_PRIO_BITS  3U

#define CPU_HZ          25000000UL
#define BAUD            115200UL
#define EVENT_PERIOD_US 100UL
#define TIMER_RELOAD    ((CPU_HZ / 1000000UL) * EVENT_PERIOD_US - 1UL) /* 2499 */
#define TIMER0_IRQ_PRIO 6U   /* 5..7 are legal for FromISR callers */

#define EVENT_BUF_SIZE  256U
#define BURST_MIN       1U
#define BURST_MAX       200U
#define LINE_MAX        64U

#define PRIO_COMMAND    1U
#define PRIO_HANDLER    3U

typedef struct {
    uint32_t   number;
    TickType_t tick;
} event_t;

static event_t events[EVENT_BUF_SIZE];
static volatile uint32_t isr_produced;   /* events produced in this burst */
static volatile uint32_t burst_target;   /* n of this burst */
static uint32_t handler_read;            /* events taken by the handler */

static TaskHandle_t handler_task;
static TaskHandle_t command_task;

/* ------------------------------------------------------------------ */
static void uart_init(void)
{
    UART0_BAUDDIV = CPU_HZ / BAUD;
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

static void uart_put_uint(uint32_t v)
{
    char buf[11];
    int i = 0;
    do {
        buf[i++] = (char)('0' + (v % 10U));
        v /= 10U;
    } while (v != 0U);
    while (i > 0) {
        uart_putc(buf[--i]);
    }
}

static char uart_getc(void)
{
    while ((UART0_STATE & UART_STATE_RXFULL) == 0U) {
        vTaskDelay(1);
    }
    return (char)(UART0_DATA & 0xFFU);
}

/* Reads one line ended by LF; a CR right before the LF is dropped.
 * Returns the length, or -1 if the line did not fit. */
static int read_line(char *buf, size_t size)
{
    size_t len = 0;
    int overflow = 0;
    for (;;) {
        char c = uart_getc();
        if (c == '\n') {
            break;
        }
        if (len < size - 1U) {
            buf[len++] = c;
        } else {
            overflow = 1;
        }
    }
    if (!overflow && len > 0U && buf[len - 1U] == '\r') {
        len--;
    }
    buf[len] = '\0';
    return overflow ? -1 : (int)len;
}

/* "burst <n>" with n decimal 1..200, nothing else. */
static int parse_burst(const char *line, uint32_t *n)
{
    static const char keyword[] = "burst ";
    size_t i;
    uint32_t value = 0;
    int digits = 0;

    for (i = 0; keyword[i] != '\0'; i++) {
        if (line[i] != keyword[i]) {
            return 0;
        }
    }
    for (; line[i] != '\0'; i++) {
        if (line[i] < '0' || line[i] > '9') {
            return 0;
        }
        if (value > BURST_MAX) {
            return 0; /* already out of range, avoid overflow */
        }
        value = value * 10U + (uint32_t)(line[i] - '0');
        digits++;
    }
    if (digits == 0 || value < BURST_MIN || value > BURST_MAX) {
        return 0;
    }
    *n = value;
    return 1;
}

/* ------------------------------------------------------------------ */
static void timer0_start_burst(void)
{
    TIMER0_CTRL = 0;
    TIMER0_INTCLEAR = 1;
    TIMER0_RELOAD = TIMER_RELOAD;
    TIMER0_VALUE = TIMER_RELOAD;
    TIMER0_CTRL = TIMER_CTRL_EN | TIMER_CTRL_IRQEN;
}

void TIMER0_IRQHandler(void)
{
    BaseType_t woken = pdFALSE;
    uint32_t k;

    TIMER0_INTCLEAR = 1;

    k = isr_produced + 1U;
    if (k > burst_target) {
        /* spurious: burst already complete */
        TIMER0_CTRL = 0;
        return;
    }
    events[(k - 1U) % EVENT_BUF_SIZE].number = k;
    events[(k - 1U) % EVENT_BUF_SIZE].tick = xTaskGetTickCountFromISR();
    isr_produced = k;
    if (k == burst_target) {
        TIMER0_CTRL = 0;
    }

    vTaskNotifyGiveFromISR(handler_task, &woken);
    portYIELD_FROM_ISR(woken);
}

/* ------------------------------------------------------------------ */
static void handler_task_fn(void *arg)
{
    uint32_t handled = 0;
    TickType_t max_latency = 0;
    (void)arg;

    for (;;) {
        event_t ev;
        TickType_t latency;

        (void)ulTaskNotifyTake(pdFALSE, portMAX_DELAY);

        ev = events[handler_read % EVENT_BUF_SIZE];
        handler_read++;

        latency = xTaskGetTickCount() - ev.tick;
        handled++;
        if (latency > max_latency) {
            max_latency = latency;
        }

        uart_puts("event ");
        uart_put_uint(ev.number);
        uart_puts(" latency ");
        uart_put_uint((uint32_t)latency);
        uart_puts("\r\n");

        if ((ev.number % 10U) == 0U) {
            vTaskDelay(2);
        }

        if (handled == burst_target) {
            uart_puts("burst done: handled ");
            uart_put_uint(handled);
            uart_puts(", max latency ");
            uart_put_uint((uint32_t)max_latency);
            uart_puts(" ticks\r\n");
            handled = 0;
            max_latency = 0;
            xTaskNotifyGive(command_task);
        }
    }
}

static void command_task_fn(void *arg)
{
    char line[LINE_MAX];
    (void)arg;

    for (;;) {
        uint32_t n;
        int len = read_line(line, sizeof line);

        if (len < 0 || !parse_burst(line, &n)) {
            uart_puts("error\r\n");
            continue;
        }

        /* handler is idle here: all notifications of the last burst were taken */
        handler_read = 0;
        isr_produced = 0;
        burst_target = n;
        timer0_start_burst();

        (void)ulTaskNotifyTake(pdTRUE, portMAX_DELAY);
    }
}

/* ------------------------------------------------------------------ */
int main(void)
{
    uart_init();

    TIMER0_CTRL = 0;
    TIMER0_INTCLEAR = 1;

    NVIC_IPR_IRQ8 = (uint8_t)(TIMER0_IRQ_PRIO << (8U - NVIC_PRIO_BITS));
    NVIC_ISER0 = 1UL << TIMER0_IRQN;

    if (xTaskCreate(handler_task_fn, "handler", configMINIMAL_STACK_SIZE * 2,
                    NULL, PRIO_HANDLER, &handler_task) != pdPASS) {
        for (;;) {
        }
    }
    if (xTaskCreate(command_task_fn, "command", configMINIMAL_STACK_SIZE * 2,
                    NULL, PRIO_COMMAND, &command_task) != pdPASS) {
        for (;;) {
        }
    }

    vTaskStartScheduler();

    for (;;) {
    }
}
