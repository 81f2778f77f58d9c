/* defect: the reporter spins polling the shared counter with taskYIELD() instead of blocking on a notification, so it consumes CPU time (and starves the idle task) while waiting.
 * breaks: "When it has counted the fifth one, it wakes a task named `reporter`; until then the reporter waits without using CPU time."
 * must_fail: reporter_blocks_for_signal, callback_signals_after_fifth
 */
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"
#include "timers.h"

/* CMSDK APB UART0 */
#define UART0_BASE      0x40004000UL
#define UART0_DATA      (*(volatile uint32_t *)(UART0_BASE + 0x00U))
#define UART0_STATE     (*(volatile uint32_t *)(UART0_BASE + 0x04U))
#define UART0_CTRL      (*(volatile uint32_t *)(UART0_BASE + 0x08U))
#define UART0_BAUDDIV   (*(volatile uint32_t *)(UART0_BASE + 0x10U))

#define UART_STATE_TX_FULL  (1UL << 0)
#define UART_CTRL_TX_EN     (1UL << 0)
#define UART_BAUD_RATE      115200UL

#define TIMER_PERIOD_MS     100U
#define EXPIRATIONS_WANTED  5U
#define STOP_BLOCK_MS       100U

static TimerHandle_t s_timer;
static TaskHandle_t s_reporter;
static volatile uint32_t s_expirations;

static void uart_init(void)
{
    UART0_CTRL = 0U;
    UART0_BAUDDIV = configCPU_CLOCK_HZ / UART_BAUD_RATE;
    UART0_CTRL = UART_CTRL_TX_EN;
}

static void uart_putc(char c)
{
    while ((UART0_STATE & UART_STATE_TX_FULL) != 0U) {
    }
    UART0_DATA = (uint32_t)(uint8_t)c;
}

static void uart_puts(const char *s)
{
    while (*s != '\0') {
        uart_putc(*s++);
    }
}

static void uart_putu(uint32_t v)
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

/* Runs in the timer service task: count only, never block or print. */
static void timer_callback(TimerHandle_t timer)
{
    (void)timer;

    s_expirations++;
}

static void reporter_task(void *arg)
{
    (void)arg;

    uart_puts("timer demo: waiting for 5 expirations\r\n");

    while (s_expirations < EXPIRATIONS_WANTED) {
        taskYIELD();
    }

    if (xTimerStop(s_timer, pdMS_TO_TICKS(STOP_BLOCK_MS)) == pdPASS) {
        uart_puts("timer demo: stopped after ");
        uart_putu(s_expirations);
        uart_puts(" expirations\r\n");
    } else {
        uart_puts("timer demo: stop failed\r\n");
    }

    vTaskDelete(NULL);
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

    if (xTaskCreate(reporter_task, "reporter", configMINIMAL_STACK_SIZE * 2U,
                    NULL, tskIDLE_PRIORITY + 1U, &s_reporter) != pdPASS) {
        halt();
    }

    s_timer = xTimerCreate("count", pdMS_TO_TICKS(TIMER_PERIOD_MS), pdTRUE,
                           NULL, timer_callback);
    if (s_timer == NULL) {
        halt();
    }

    if (xTimerStart(s_timer, 0) != pdPASS) {
        halt();
    }

    vTaskStartScheduler();

    /* Only reached if the scheduler could not start. */
    halt();
    return 0;
}
