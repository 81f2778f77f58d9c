/* defect: vApplicationGetTimerTaskMemory reports configMINIMAL_STACK_SIZE (copied from the idle hook) instead of configTIMER_TASK_STACK_DEPTH as the timer task's stack size.
 * breaks: "Provide `vApplicationGetIdleTaskMemory` and `vApplicationGetTimerTaskMemory` (the kernel calls them when the scheduler starts), handing out a stack of `configMINIMAL_STACK_SIZE` and `configTIMER_TASK_STACK_DEPTH` words respectively."
 * must_fail: kernel_task_stack_sizes
 */
/* VT-3 vibration tap: heap-free FreeRTOS application (static allocation only). */
#include <stdint.h>
#include <stddef.h>
#include "FreeRTOS.h"
#include "task.h"
#include "queue.h"
#include "semphr.h"
#include "timers.h"

#define UART0_DATA    (*(volatile uint32_t *)0x40004000UL)
#define UART0_STATE   (*(volatile uint32_t *)0x40004004UL)
#define UART0_CTRL    (*(volatile uint32_t *)0x40004008UL)
#define UART0_BAUDDIV (*(volatile uint32_t *)0x40004010UL)
#define UART_TXFULL   0x1UL
#define UART_RXFULL   0x2UL

#define CONTROL_PRIO        1
#define LOGGER_PRIO         2
#define CONTROL_STACK_WORDS 256
#define LOGGER_STACK_WORDS  256
#define STAMP_QUEUE_LEN     4
#define SAMPLE_PERIOD_TICKS 50
#define MAX_SAMPLES         20
#define LINE_LEN            32

/* ---- kernel task memory ---- */
static StaticTask_t idle_tcb;
static StackType_t  idle_stack[configMINIMAL_STACK_SIZE];
static StaticTask_t timer_tcb;
static StackType_t  timer_stack[configTIMER_TASK_STACK_DEPTH];

/* ---- application objects ---- */
static StaticTask_t control_tcb;
static StackType_t  control_stack[CONTROL_STACK_WORDS];
static StaticTask_t logger_tcb;
static StackType_t  logger_stack[LOGGER_STACK_WORDS];

static StaticQueue_t stamp_queue_cb;
static uint8_t       stamp_queue_storage[STAMP_QUEUE_LEN * sizeof(TickType_t)];
static StaticSemaphore_t print_mutex_cb;
static StaticSemaphore_t done_sem_cb;
static StaticTimer_t     sample_timer_cb;

static QueueHandle_t     stamp_queue;
static SemaphoreHandle_t print_mutex;
static SemaphoreHandle_t done_sem;
static TimerHandle_t     sample_timer;

/* run parameters, written by control before the timer is started */
static volatile uint32_t   run_samples;
static volatile TickType_t run_t0;

void vApplicationGetIdleTaskMemory(StaticTask_t **ppxIdleTaskTCBBuffer,
                                   StackType_t **ppxIdleTaskStackBuffer,
                                   configSTACK_DEPTH_TYPE *puxIdleTaskStackSize)
{
    *ppxIdleTaskTCBBuffer = &idle_tcb;
    *ppxIdleTaskStackBuffer = idle_stack;
    *puxIdleTaskStackSize = configMINIMAL_STACK_SIZE;
}

void vApplicationGetTimerTaskMemory(StaticTask_t **ppxTimerTaskTCBBuffer,
                                    StackType_t **ppxTimerTaskStackBuffer,
                                    configSTACK_DEPTH_TYPE *puxTimerTaskStackSize)
{
    *ppxTimerTaskTCBBuffer = &timer_tcb;
    *ppxTimerTaskStackBuffer = timer_stack;
    *puxTimerTaskStackSize = configMINIMAL_STACK_SIZE;
}

/* ---- UART ---- */
static void uart_init(void)
{
    UART0_BAUDDIV = 25000000UL / 115200UL;
    UART0_CTRL = 0x3UL; /* TX enable | RX enable */
}

static void uart_raw_putc(char c)
{
    while (UART0_STATE & UART_TXFULL) {
    }
    UART0_DATA = (uint8_t)c;
}

static void uart_raw_puts(const char *s)
{
    while (*s) {
        uart_raw_putc(*s++);
    }
}

static char *fmt_uint(char *p, uint32_t v)
{
    char tmp[10];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10U);
        v /= 10U;
    } while (v);
    while (n) {
        *p++ = tmp[--n];
    }
    return p;
}

/* prints  <a><num><b>\r\n  as one line under the print mutex */
static void print_line(const char *a, int has_num, uint32_t num, const char *b)
{
    char buf[64];
    char *p = buf;
    while (*a) {
        *p++ = *a++;
    }
    if (has_num) {
        p = fmt_uint(p, num);
    }
    while (b && *b) {
        *p++ = *b++;
    }
    *p++ = '\r';
    *p++ = '\n';
    *p = '\0';

    xSemaphoreTake(print_mutex, portMAX_DELAY);
    uart_raw_puts(buf);
    xSemaphoreGive(print_mutex);
}

static char uart_getc(void)
{
    while (!(UART0_STATE & UART_RXFULL)) {
        vTaskDelay(1);
    }
    return (char)(UART0_DATA & 0xFFU);
}

/* returns 1..20 for a valid line, 0 otherwise */
static uint32_t read_command(void)
{
    char line[LINE_LEN];
    size_t len = 0;
    int too_long = 0;
    uint32_t value = 0;
    size_t i;

    for (;;) {
        char c = uart_getc();
        if (c == '\n') {
            break;
        }
        if (len < sizeof line) {
            line[len++] = c;
        } else {
            too_long = 1;
        }
    }
    if (too_long) {
        return 0;
    }
    if (len > 0 && line[len - 1] == '\r') {
        len--;
    }
    if (len == 0 || len > 2) {
        return 0; /* 1..20 has one or two digits */
    }
    for (i = 0; i < len; i++) {
        if (line[i] < '0' || line[i] > '9') {
            return 0;
        }
        value = value * 10U + (uint32_t)(line[i] - '0');
    }
    if (value < 1U || value > MAX_SAMPLES) {
        return 0;
    }
    return value;
}

/* ---- timer callback: runs in the timer service task, never blocks ---- */
static void sample_timer_cb_fn(TimerHandle_t t)
{
    TickType_t now = xTaskGetTickCount();
    (void)t;
    (void)xQueueSend(stamp_queue, &now, 0);
}

static void logger_task(void *arg)
{
    uint32_t k = 0;
    (void)arg;

    for (;;) {
        TickType_t stamp;
        char buf[48];
        char *p = buf;
        const char *s;

        xQueueReceive(stamp_queue, &stamp, portMAX_DELAY);
        if (k >= run_samples) {
            continue; /* stray stamp outside a run */
        }
        k++;

        for (s = "sample "; *s; s++) {
            *p++ = *s;
        }
        p = fmt_uint(p, k);
        for (s = " at +"; *s; s++) {
            *p++ = *s;
        }
        p = fmt_uint(p, (uint32_t)(stamp - run_t0));
        *p = '\0';
        print_line(buf, 0, 0, NULL);

        if (k == run_samples) {
            xTimerStop(sample_timer, portMAX_DELAY);
            k = 0;
            run_samples = 0;
            xSemaphoreGive(done_sem);
        }
    }
}

static void control_task(void *arg)
{
    (void)arg;
    for (;;) {
        uint32_t n = read_command();
        if (n == 0) {
            print_line("error", 0, 0, NULL);
            continue;
        }
        print_line("run: ", 1, n, " samples");

        xQueueReset(stamp_queue);
        run_samples = n;
        run_t0 = xTaskGetTickCount();
        xTimerStart(sample_timer, portMAX_DELAY);

        xSemaphoreTake(done_sem, portMAX_DELAY);
        print_line("run done: ", 1, n, " samples");
    }
}

int main(void)
{
    uart_init();

    print_mutex = xSemaphoreCreateMutexStatic(&print_mutex_cb);
    done_sem = xSemaphoreCreateBinaryStatic(&done_sem_cb);
    stamp_queue = xQueueCreateStatic(STAMP_QUEUE_LEN, sizeof(TickType_t),
                                     stamp_queue_storage, &stamp_queue_cb);
    sample_timer = xTimerCreateStatic("sample", SAMPLE_PERIOD_TICKS, pdTRUE,
                                      NULL, sample_timer_cb_fn, &sample_timer_cb);

    (void)xTaskCreateStatic(control_task, "control", CONTROL_STACK_WORDS, NULL,
                            CONTROL_PRIO, control_stack, &control_tcb);
    (void)xTaskCreateStatic(logger_task, "logger", LOGGER_STACK_WORDS, NULL,
                            LOGGER_PRIO, logger_stack, &logger_tcb);

    vTaskStartScheduler();

    for (;;) {
    }
}
