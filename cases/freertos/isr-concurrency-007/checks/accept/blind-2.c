#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "FreeRTOS.h"
#include "task.h"
#include "semphr.h"

typedef struct {
    volatile uint32_t DATA;
    volatile uint32_t STATE;
    volatile uint32_t CTRL;
    volatile uint32_t INTSTATUS;
    volatile uint32_t BAUDDIV;
} cmsdk_uart_t;

typedef struct {
    volatile uint32_t CTRL;
    volatile uint32_t VALUE;
    volatile uint32_t RELOAD;
    volatile uint32_t INTCLEAR;
} cmsdk_timer_t;

#define UART0   ((cmsdk_uart_t *)0x40004000u)
#define TIMER0  ((cmsdk_timer_t *)0x40000000u)

#define NVIC_ISER0  ((volatile uint32_t *)0xE000E100u)
#define NVIC_IPR    ((volatile uint8_t *)0xE000E400u)

enum {
    RING_LEN = 256,          /* power of two: index wraps with & (RING_LEN-1) */
    CMD_PRIO = 1,
    HANDLER_PRIO = 3,
    IRQ_TIMER0 = 8
};

struct encoder_event {
    uint16_t seq;
    TickType_t stamp;
};

static struct encoder_event ring[RING_LEN];
static volatile uint8_t ring_head;    /* written by the ISR only */
static uint8_t ring_tail;             /* written by the handler task only */

static volatile uint16_t events_made;
static volatile uint16_t events_wanted;

/* per-burst results written by the handler, read by the command task */
static uint16_t result_handled;
static TickType_t result_max;

static TaskHandle_t hHandler;
static SemaphoreHandle_t burstDone;

static void put_str(const char *s)
{
    for (; *s; ++s) {
        while (UART0->STATE & 1u) { }
        UART0->DATA = (uint8_t)*s;
    }
}

void TIMER0_IRQHandler(void)
{
    BaseType_t xHigherPriorityTaskWoken = pdFALSE;

    TIMER0->INTCLEAR = 1u;

    if (events_made < events_wanted) {
        uint8_t h = ring_head;
        events_made++;
        ring[h].seq = events_made;
        ring[h].stamp = xTaskGetTickCountFromISR();
        ring_head = (uint8_t)((h + 1u) & (RING_LEN - 1u));
        if (events_made == events_wanted) {
            TIMER0->CTRL = 0u;             /* n-th event: stop the timer */
        }
        vTaskNotifyGiveFromISR(hHandler, &xHigherPriorityTaskWoken);
    } else {
        TIMER0->CTRL = 0u;
    }
    portYIELD_FROM_ISR(xHigherPriorityTaskWoken);
}

static void vHandlerTask(void *pv)
{
    char out[48];
    uint16_t count = 0;
    TickType_t worst = 0;
    (void)pv;

    for (;;) {
        ulTaskNotifyTake(pdFALSE, portMAX_DELAY);   /* one event per take */

        struct encoder_event e = ring[ring_tail];
        ring_tail = (uint8_t)((ring_tail + 1u) & (RING_LEN - 1u));

        TickType_t lat = xTaskGetTickCount() - e.stamp;
        if (lat > worst) {
            worst = lat;
        }
        count++;

        snprintf(out, sizeof out, "event %u latency %lu\r\n",
                 (unsigned)e.seq, (unsigned long)lat);
        put_str(out);

        if (e.seq % 10u == 0u) {
            vTaskDelay(2);
        }

        if (count == events_wanted) {
            result_handled = count;
            result_max = worst;
            count = 0;
            worst = 0;
            xSemaphoreGive(burstDone);
        }
    }
}

static int get_line(char *line, int cap)
{
    int n = 0;
    int too_long = 0;
    for (;;) {
        while ((UART0->STATE & 2u) == 0u) {
            vTaskDelay(1);
        }
        char c = (char)UART0->DATA;
        if (c == '\n') {
            break;
        }
        if (n < cap - 1) {
            line[n++] = c;
        } else {
            too_long = 1;
        }
    }
    if (n > 0 && line[n - 1] == '\r') {
        n--;
    }
    line[n] = '\0';
    return too_long ? -1 : n;
}

static long burst_arg(const char *line)
{
    if (strncmp(line, "burst ", 6) != 0) {
        return -1;
    }
    const char *p = line + 6;
    if (*p < '0' || *p > '9') {
        return -1;
    }
    char *end;
    unsigned long v = strtoul(p, &end, 10);
    if (*end != '\0' || v < 1ul || v > 200ul) {
        return -1;
    }
    return (long)v;
}

static void vCommandTask(void *pv)
{
    char line[80];
    char out[64];
    (void)pv;

    for (;;) {
        if (get_line(line, (int)sizeof line) < 0) {
            put_str("error\r\n");
            continue;
        }
        long n = burst_arg(line);
        if (n < 0) {
            put_str("error\r\n");
            continue;
        }

        ring_head = 0;
        ring_tail = 0;
        events_made = 0;
        events_wanted = (uint16_t)n;

        TIMER0->CTRL = 0u;
        TIMER0->INTCLEAR = 1u;
        TIMER0->RELOAD = 2500u - 1u;      /* 2500 clocks at 25 MHz = 100 us */
        TIMER0->VALUE = 2500u - 1u;
        TIMER0->CTRL = (1u << 0) | (1u << 3);

        xSemaphoreTake(burstDone, portMAX_DELAY);

        snprintf(out, sizeof out, "burst done: handled %u, max latency %lu ticks\r\n",
                 (unsigned)result_handled, (unsigned long)result_max);
        put_str(out);
    }
}

int main(void)
{
    UART0->BAUDDIV = 25000000u / 115200u;
    UART0->CTRL = 3u;

    TIMER0->CTRL = 0u;
    TIMER0->INTCLEAR = 1u;

    /* priority 5 in the 3 implemented (top) bits */
    NVIC_IPR[IRQ_TIMER0] = (uint8_t)(configLIBRARY_MAX_SYSCALL_INTERRUPT_PRIORITY << (8 - configPRIO_BITS));
    NVIC_ISER0[0] = 1u << IRQ_TIMER0;

    burstDone = xSemaphoreCreateBinary();
    BaseType_t ok = (burstDone != NULL) ? pdPASS : pdFAIL;
    if (ok == pdPASS) {
        ok = xTaskCreate(vHandlerTask, "hdl", 320, NULL, HANDLER_PRIO, &hHandler);
    }
    if (ok == pdPASS) {
        ok = xTaskCreate(vCommandTask, "cmd", 384, NULL, CMD_PRIO, NULL);
    }
    if (ok != pdPASS) {
        taskDISABLE_INTERRUPTS();
        for (;;) { }
    }

    vTaskStartScheduler();
    for (;;) { }
}
