/* defect: the sampler paces itself with a relative vTaskDelay() after each (possibly blocked) lock attempt, so every wait on the lock shifts all later samples and the lag behind the 10 ms schedule accumulates without bound.
 * breaks: "The sampler must never fall more than 20 ms behind its schedule because of the rest of the system."
 * must_fail: sampler_schedule_drift_free
 */
/*
 * Sampler/reporter pair sharing a statistics window.
 * QEMU mps2-an385, FreeRTOS V11.1.0 (GCC/ARM_CM3, heap_4).
 *
 * The record is guarded by a FreeRTOS mutex so that, while the low-priority
 * reporter holds it, it inherits the sampler's priority and cannot be held
 * off by the priority-2 tasks that will be added later.
 */
#include <stdbool.h>
#include <stdint.h>

#include "FreeRTOS.h"
#include "semphr.h"
#include "task.h"

typedef struct {
    volatile uint32_t DATA;
    volatile uint32_t STATE;
    volatile uint32_t CTRL;
    volatile uint32_t INT;
    volatile uint32_t BAUDDIV;
} uart_regs_t;

#define UART0           ((uart_regs_t *)0x40004000UL)
#define TX_FULL         0x1UL
#define TX_ENABLE       0x1UL
#define BAUDDIV_115200  (25000000UL / 115200UL)

enum {
    PRIO_REPORTER = 1,
    PRIO_SAMPLER  = 3,
};

#define SAMPLE_MS           10U
#define REPORT_MS           500U
#define SAMPLER_TIMEOUT     pdMS_TO_TICKS(2)
#define REPORTER_TIMEOUT    pdMS_TO_TICKS(20)

struct window_stats {
    uint32_t n;
    uint32_t sum;
    uint16_t min;
    uint16_t max;
    uint32_t dropped;
};

static struct window_stats g_window;
static SemaphoreHandle_t g_window_lock;

static void tx_char(char c)
{
    while (UART0->STATE & TX_FULL) {
    }
    UART0->DATA = (unsigned char)c;
}

static void tx_str(const char *s)
{
    while (*s != '\0') {
        tx_char(*s++);
    }
}

/* Append a decimal number to p, return the new end. */
static char *append_u32(char *p, uint32_t v)
{
    char tmp[10];
    unsigned int k = 0;

    do {
        tmp[k++] = (char)('0' + v % 10U);
        v /= 10U;
    } while (v);
    while (k) {
        *p++ = tmp[--k];
    }
    return p;
}

static char *append_str(char *p, const char *s)
{
    while (*s) {
        *p++ = *s++;
    }
    return p;
}

static void window_clear(struct window_stats *w)
{
    w->n = 0;
    w->sum = 0;
    w->min = 0xFFFFu;
    w->max = 0;
    w->dropped = 0;
}

static void window_add(struct window_stats *w, uint16_t v)
{
    w->n++;
    w->sum += v;
    if (v < w->min) {
        w->min = v;
    }
    if (v > w->max) {
        w->max = v;
    }
}

/* Linear congruential generator, top 10 bits used as the reading. */
static uint16_t fake_sensor(void)
{
    static uint32_t seed = 12345u;

    seed = seed * 1664525u + 1013904223u;
    return (uint16_t)(seed >> 22);
}

static void sampler(void *unused)
{
    const TickType_t period = pdMS_TO_TICKS(SAMPLE_MS);
    uint32_t missed = 0;

    (void)unused;

    for (;;) {
        vTaskDelay(period);

        const uint16_t reading = fake_sensor();
        bool recorded = false;

        if (xSemaphoreTake(g_window_lock, SAMPLER_TIMEOUT) == pdPASS) {
            window_add(&g_window, reading);
            g_window.dropped += missed;
            xSemaphoreGive(g_window_lock);
            recorded = true;
        }

        if (recorded) {
            missed = 0;
        } else {
            missed++;
        }
    }
}

static void reporter(void *unused)
{
    const TickType_t period = pdMS_TO_TICKS(REPORT_MS);
    TickType_t next;
    char line[96];

    (void)unused;

    tx_str("stats ready\r\n");
    next = xTaskGetTickCount();

    for (;;) {
        struct window_stats copy;
        bool got = false;

        vTaskDelayUntil(&next, period);

        if (xSemaphoreTake(g_window_lock, REPORTER_TIMEOUT) == pdPASS) {
            copy = g_window;
            window_clear(&g_window);
            xSemaphoreGive(g_window_lock);
            got = true;
        }

        if (!got) {
            tx_str("stats busy\r\n");
            continue;
        }

        char *p = line;
        p = append_str(p, "samples=");
        p = append_u32(p, copy.n);
        p = append_str(p, " avg=");
        p = append_u32(p, copy.n ? copy.sum / copy.n : 0u);
        p = append_str(p, " min=");
        p = append_u32(p, copy.n ? copy.min : 0u);
        p = append_str(p, " max=");
        p = append_u32(p, copy.n ? copy.max : 0u);
        p = append_str(p, " dropped=");
        p = append_u32(p, copy.dropped);
        p = append_str(p, "\r\n");
        *p = '\0';
        tx_str(line);
    }
}

int main(void)
{
    BaseType_t ok;

    UART0->BAUDDIV = BAUDDIV_115200;
    UART0->CTRL = TX_ENABLE;

    window_clear(&g_window);

    g_window_lock = xSemaphoreCreateMutex();
    ok = (g_window_lock != NULL) ? pdPASS : pdFAIL;

    if (ok == pdPASS) {
        ok = xTaskCreate(sampler, "sampler", configMINIMAL_STACK_SIZE, NULL,
                         PRIO_SAMPLER, NULL);
    }
    if (ok == pdPASS) {
        ok = xTaskCreate(reporter, "reporter", 2 * configMINIMAL_STACK_SIZE,
                         NULL, PRIO_REPORTER, NULL);
    }

    if (ok == pdPASS) {
        vTaskStartScheduler();
    }

    /* Setup failed (or the scheduler could not start): stop here. */
    portDISABLE_INTERRUPTS();
    for (;;) {
    }
}
