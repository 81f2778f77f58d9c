/* defect: the record is guarded by a binary semaphore instead of a mutex, so there is no priority inheritance and a priority-2 task preempting the reporter while it holds the lock delays (and makes drop) the sampler.
 * breaks: "More tasks will be added later at priority 2; the sampler's timing must not depend on them."
 * must_fail: lock_is_mutex_with_priority_inheritance
 */
/*
 * Two FreeRTOS tasks sharing a statistics record under a mutex.
 * Target: QEMU mps2-an385 (Cortex-M3, 25 MHz), FreeRTOS V11.1.0, ARM_CM3.
 */
#include <stddef.h>
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"
#include "semphr.h"

/* ---- UART0 (CMSDK APB UART), TX only, polled --------------------------- */
#define UART0_BASE          0x40004000UL
#define UART0_DATA          (*(volatile uint32_t *)(UART0_BASE + 0x00UL))
#define UART0_STATE         (*(volatile uint32_t *)(UART0_BASE + 0x04UL))
#define UART0_CTRL          (*(volatile uint32_t *)(UART0_BASE + 0x08UL))
#define UART0_BAUDDIV       (*(volatile uint32_t *)(UART0_BASE + 0x10UL))
#define UART_STATE_TXFULL   (1UL << 0)
#define UART_CTRL_TXEN      (1UL << 0)

#define CPU_CLOCK_HZ        25000000UL
#define UART_BAUD           115200UL

/* ---- application parameters -------------------------------------------- */
#define SAMPLER_PRIORITY    3
#define REPORTER_PRIORITY   1
#define SAMPLER_STACK       (configMINIMAL_STACK_SIZE)
#define REPORTER_STACK      (configMINIMAL_STACK_SIZE * 2)

#define SAMPLE_PERIOD       pdMS_TO_TICKS(10)
#define REPORT_PERIOD       pdMS_TO_TICKS(500)
/* Sampler gives up on the lock well before it could be 20 ms late. */
#define SAMPLER_LOCK_WAIT   pdMS_TO_TICKS(5)
#define REPORTER_LOCK_WAIT  pdMS_TO_TICKS(50)

typedef struct {
    uint32_t samples;
    uint32_t sum;
    uint32_t min;
    uint32_t max;
    uint32_t dropped;
} stats_t;

static stats_t stats;                 /* guarded by stats_mutex */
static SemaphoreHandle_t stats_mutex;

/* ---- UART helpers ------------------------------------------------------- */
static void uart_init(void)
{
    UART0_BAUDDIV = CPU_CLOCK_HZ / UART_BAUD;
    UART0_CTRL = UART_CTRL_TXEN;
}

static void uart_putc(char c)
{
    while (UART0_STATE & UART_STATE_TXFULL) {
    }
    UART0_DATA = (uint32_t)(uint8_t)c;
}

static void uart_puts(const char *s)
{
    while (*s) {
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

/* ---- statistics record ------------------------------------------------- */
static void stats_reset_locked(void)
{
    stats.samples = 0;
    stats.sum = 0;
    stats.min = UINT32_MAX;
    stats.max = 0;
    stats.dropped = 0;
}

/* Cheap 10-bit pseudo-random "sensor reading" (xorshift32). */
static uint32_t read_sensor(void)
{
    static uint32_t state = 0x2545F491UL;

    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state & 0x3FFUL;
}

/* ---- tasks -------------------------------------------------------------- */
static void sampler_task(void *arg)
{
    TickType_t last_wake = xTaskGetTickCount();
    uint32_t pending_drops = 0;

    (void)arg;

    for (;;) {
        (void)xTaskDelayUntil(&last_wake, SAMPLE_PERIOD);

        uint32_t value = read_sensor();

        if (xSemaphoreTake(stats_mutex, SAMPLER_LOCK_WAIT) == pdTRUE) {
            stats.samples++;
            stats.sum += value;
            if (value < stats.min) {
                stats.min = value;
            }
            if (value > stats.max) {
                stats.max = value;
            }
            stats.dropped += pending_drops;
            (void)xSemaphoreGive(stats_mutex);
            pending_drops = 0;
        } else {
            /* Could not record in time: account for it in a later window. */
            pending_drops++;
        }
    }
}

static void reporter_task(void *arg)
{
    TickType_t last_wake;
    stats_t snap;

    (void)arg;

    uart_puts("stats ready\r\n");
    last_wake = xTaskGetTickCount();

    for (;;) {
        (void)xTaskDelayUntil(&last_wake, REPORT_PERIOD);

        if (xSemaphoreTake(stats_mutex, REPORTER_LOCK_WAIT) != pdTRUE) {
            uart_puts("stats busy\r\n");
            continue;
        }
        snap = stats;
        stats_reset_locked();
        (void)xSemaphoreGive(stats_mutex);

        /* Printing happens outside the critical section. */
        uint32_t avg = (snap.samples != 0U) ? (snap.sum / snap.samples) : 0U;
        uint32_t min = (snap.samples != 0U) ? snap.min : 0U;

        uart_puts("samples=");
        uart_putu(snap.samples);
        uart_puts(" avg=");
        uart_putu(avg);
        uart_puts(" min=");
        uart_putu(min);
        uart_puts(" max=");
        uart_putu(snap.max);
        uart_puts(" dropped=");
        uart_putu(snap.dropped);
        uart_puts("\r\n");
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
    stats_reset_locked();           /* scheduler not running yet */

    stats_mutex = xSemaphoreCreateBinary();
    if (stats_mutex == NULL) {
        halt();
    }
    (void)xSemaphoreGive(stats_mutex);    /* start out available */

    if (xTaskCreate(sampler_task, "sampler", SAMPLER_STACK, NULL,
                    SAMPLER_PRIORITY, NULL) != pdPASS) {
        halt();
    }
    if (xTaskCreate(reporter_task, "reporter", REPORTER_STACK, NULL,
                    REPORTER_PRIORITY, NULL) != pdPASS) {
        halt();
    }

    vTaskStartScheduler();

    /* Only reached if the scheduler could not start (out of heap). */
    halt();
    return 0;
}
