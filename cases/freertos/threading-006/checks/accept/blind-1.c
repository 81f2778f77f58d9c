/* DL-6 data logger acquisition pipeline: 2 producers -> 4-entry queue -> 1 consumer. */
#include <stdint.h>
#include <stddef.h>
#include "FreeRTOS.h"
#include "task.h"
#include "queue.h"

#define UART0_DATA    (*(volatile uint32_t *)0x40004000UL)
#define UART0_STATE   (*(volatile uint32_t *)0x40004004UL)
#define UART0_CTRL    (*(volatile uint32_t *)0x40004008UL)
#define UART0_BAUDDIV (*(volatile uint32_t *)0x40004010UL)

#define QUEUE_DEPTH        4
#define SEND_TIMEOUT_TICKS 5
#define ITEMS_PER_PAUSE    8
#define CONFIG_PRIO        1
#define PRODUCER_PRIO      2
#define CONSUMER_PRIO      3
#define STACK_WORDS        256

typedef enum { KIND_ITEM, KIND_END } kind_t;

typedef struct {
    uint8_t  producer;  /* 0 = A, 1 = B */
    uint8_t  kind;
    uint32_t value;     /* item: sequence number; end marker: items queued */
    uint32_t timeouts;  /* end marker only */
} message_t;

typedef struct {
    uint8_t     id;
    TickType_t  gap;
    uint32_t    count;
    TaskHandle_t task;
} producer_t;

static QueueHandle_t pipe_q;
static producer_t producers[2] = {
    { 0, 2, 0, NULL },
    { 1, 3, 0, NULL },
};
static TaskHandle_t consumer_task_h;
static uint32_t pause_ticks;

static void uart_puts(const char *s)
{
    while (*s) {
        while (UART0_STATE & 1U) {
        }
        UART0_DATA = (uint8_t)*s++;
    }
}

static void uart_putu(uint32_t v)
{
    char b[11];
    int i = 0;
    do {
        b[i++] = (char)('0' + v % 10U);
        v /= 10U;
    } while (v);
    char out[12];
    int j = 0;
    while (i) {
        out[j++] = b[--i];
    }
    out[j] = '\0';
    uart_puts(out);
}

static char uart_getc(void)
{
    while ((UART0_STATE & 2U) == 0U) {
        vTaskDelay(1);
    }
    return (char)(UART0_DATA & 0xFFU);
}

/* parses one unsigned decimal field; returns pointer after it or NULL */
static const char *parse_field(const char *p, uint32_t *out)
{
    uint32_t v = 0;
    int digits = 0;
    while (*p >= '0' && *p <= '9') {
        if (v > 100000U) {
            return NULL;
        }
        v = v * 10U + (uint32_t)(*p - '0');
        p++;
        digits++;
    }
    if (digits == 0) {
        return NULL;
    }
    *out = v;
    return p;
}

static int parse_config(const char *line, uint32_t *na, uint32_t *nb, uint32_t *pause)
{
    const char *p = parse_field(line, na);
    if (p == NULL || *p != ' ') {
        return 0;
    }
    p = parse_field(p + 1, nb);
    if (p == NULL || *p != ' ') {
        return 0;
    }
    p = parse_field(p + 1, pause);
    if (p == NULL || *p != '\0') {
        return 0;
    }
    return *na >= 1U && *na <= 500U && *nb >= 1U && *nb <= 500U && *pause <= 200U;
}

static void producer_task(void *arg)
{
    producer_t *self = (producer_t *)arg;
    uint32_t timeouts = 0;
    uint32_t seq;
    message_t m;

    (void)ulTaskNotifyTake(pdTRUE, portMAX_DELAY); /* wait for the start */

    for (seq = 1; seq <= self->count; seq++) {
        m.producer = self->id;
        m.kind = KIND_ITEM;
        m.value = seq;
        m.timeouts = 0;
        while (xQueueSend(pipe_q, &m, SEND_TIMEOUT_TICKS) != pdPASS) {
            timeouts++;          /* queue stayed full: retry the same item */
        }
        vTaskDelay(self->gap);
    }

    m.producer = self->id;
    m.kind = KIND_END;
    m.value = self->count;
    m.timeouts = timeouts;
    (void)xQueueSend(pipe_q, &m, portMAX_DELAY);

    vTaskDelete(NULL);
}

typedef struct {
    uint32_t received;
    uint32_t sum;
    uint32_t out_of_order;
    uint32_t last_seq;
    uint32_t sent;
    uint32_t timeouts;
    int      ended;
} stats_t;

static void print_stats(const char *name, const stats_t *s)
{
    uart_puts(name);
    uart_puts(": sent ");
    uart_putu(s->sent);
    uart_puts(" received ");
    uart_putu(s->received);
    uart_puts(" sum ");
    uart_putu(s->sum);
    uart_puts(" out of order ");
    uart_putu(s->out_of_order);
    uart_puts(" timeouts ");
    uart_putu(s->timeouts);
    uart_puts("\r\n");
}

static void consumer_task(void *arg)
{
    stats_t st[2] = { { 0 }, { 0 } };
    uint32_t taken = 0;
    message_t m;
    (void)arg;

    (void)ulTaskNotifyTake(pdTRUE, portMAX_DELAY);

    while (!(st[0].ended && st[1].ended)) {
        if (xQueueReceive(pipe_q, &m, portMAX_DELAY) != pdPASS) {
            continue;
        }
        stats_t *s = &st[m.producer & 1U];
        if (m.kind == KIND_END) {
            s->sent = m.value;
            s->timeouts = m.timeouts;
            s->ended = 1;
            continue;
        }
        s->sum += m.value;
        s->received++;
        if (m.value != s->last_seq + 1U) {
            s->out_of_order++;
        }
        s->last_seq = m.value;

        taken++;
        if ((taken % ITEMS_PER_PAUSE) == 0U && pause_ticks > 0U) {
            vTaskDelay(pause_ticks);
        }
    }

    print_stats("A", &st[0]);
    print_stats("B", &st[1]);
    uart_puts("pipeline done\r\n");

    vTaskSuspend(NULL);
}

static void config_task(void *arg)
{
    char line[48];
    (void)arg;

    for (;;) {
        size_t len = 0;
        int overflow = 0;
        uint32_t na, nb, pause;
        char c;

        while ((c = uart_getc()) != '\n') {
            if (len < sizeof line - 1U) {
                line[len++] = c;
            } else {
                overflow = 1;
            }
        }
        if (len > 0U && line[len - 1U] == '\r') {
            len--;
        }
        line[len] = '\0';

        if (overflow || !parse_config(line, &na, &nb, &pause)) {
            uart_puts("config error\r\n");
            continue;
        }

        uart_puts("config: A ");
        uart_putu(na);
        uart_puts(", B ");
        uart_putu(nb);
        uart_puts(", pause ");
        uart_putu(pause);
        uart_puts("\r\n");

        producers[0].count = na;
        producers[1].count = nb;
        pause_ticks = pause;

        xTaskNotifyGive(consumer_task_h);
        xTaskNotifyGive(producers[0].task);
        xTaskNotifyGive(producers[1].task);
        break;
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
    UART0_BAUDDIV = 25000000UL / 115200UL;
    UART0_CTRL = 0x3U;

    pipe_q = xQueueCreate(QUEUE_DEPTH, sizeof(message_t));
    if (pipe_q == NULL) {
        halt();
    }
    if (xTaskCreate(consumer_task, "cons", STACK_WORDS, NULL, CONSUMER_PRIO, &consumer_task_h) != pdPASS ||
        xTaskCreate(producer_task, "prodA", STACK_WORDS, &producers[0], PRODUCER_PRIO, &producers[0].task) != pdPASS ||
        xTaskCreate(producer_task, "prodB", STACK_WORDS, &producers[1], PRODUCER_PRIO, &producers[1].task) != pdPASS ||
        xTaskCreate(config_task, "cfg", STACK_WORDS, NULL, CONFIG_PRIO, NULL) != pdPASS) {
        halt();
    }

    vTaskStartScheduler();
    halt();
    return 0;
}
