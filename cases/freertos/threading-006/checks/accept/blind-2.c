#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdbool.h>
#include "FreeRTOS.h"
#include "task.h"
#include "queue.h"

typedef struct {
    volatile uint32_t DATA, STATE, CTRL, INTSTATUS, BAUDDIV;
} uart_regs_t;
static uart_regs_t *const uart0 = (uart_regs_t *)0x40004000u;

/* One queue element. For data items `seq` is the sequence number; for the
 * end marker `seq` is the number of items queued and `tmo` the timeouts. */
typedef struct {
    char     who;       /* 'A' or 'B' */
    bool     end;
    uint16_t seq;
    uint32_t tmo;
} pipe_msg_t;

typedef struct {
    char       name;
    TickType_t delay;
} producer_cfg_t;

static const producer_cfg_t cfgA = { 'A', 2 };
static const producer_cfg_t cfgB = { 'B', 3 };

static QueueHandle_t xPipe;
static TaskHandle_t xProdA, xProdB, xCons;

static void out(const char *s)
{
    while (*s) {
        while (uart0->STATE & 0x1u) { }
        uart0->DATA = (unsigned char)*s++;
    }
}

static void vProducer(void *pv)
{
    const producer_cfg_t *cfg = pv;
    uint32_t total = 0;
    uint32_t timeouts = 0;

    /* the item count arrives as the notification value */
    xTaskNotifyWait(0, UINT32_MAX, &total, portMAX_DELAY);

    for (uint32_t i = 1; i <= total; ) {
        pipe_msg_t m = { .who = cfg->name, .end = false, .seq = (uint16_t)i, .tmo = 0 };
        if (xQueueSendToBack(xPipe, &m, 5) == pdPASS) {
            i++;
            vTaskDelay(cfg->delay);
        } else {
            timeouts++;     /* same i is retried */
        }
    }

    pipe_msg_t marker = { .who = cfg->name, .end = true, .seq = (uint16_t)total, .tmo = timeouts };
    xQueueSendToBack(xPipe, &marker, portMAX_DELAY);

    for (;;) {
        vTaskSuspend(NULL);
    }
}

static void vConsumer(void *pv)
{
    (void)pv;
    uint32_t pause = 0;
    uint32_t sent[2] = {0}, recv[2] = {0}, sum[2] = {0}, ooo[2] = {0}, tmo[2] = {0}, prev[2] = {0};
    unsigned markers = 0;
    unsigned items = 0;
    char line[96];

    xTaskNotifyWait(0, UINT32_MAX, &pause, portMAX_DELAY);

    while (markers < 2u) {
        pipe_msg_t m;
        xQueueReceive(xPipe, &m, portMAX_DELAY);
        int idx = (m.who == 'A') ? 0 : 1;

        if (m.end) {
            sent[idx] = m.seq;
            tmo[idx] = m.tmo;
            markers++;
            continue;
        }

        recv[idx]++;
        sum[idx] += m.seq;
        if (m.seq != prev[idx] + 1u) {
            ooo[idx]++;
        }
        prev[idx] = m.seq;

        if (++items % 8u == 0u && pause != 0u) {
            vTaskDelay((TickType_t)pause);
        }
    }

    for (int i = 0; i < 2; i++) {
        snprintf(line, sizeof line, "%c: sent %lu received %lu sum %lu out of order %lu timeouts %lu\r\n",
                 i == 0 ? 'A' : 'B', (unsigned long)sent[i], (unsigned long)recv[i],
                 (unsigned long)sum[i], (unsigned long)ooo[i], (unsigned long)tmo[i]);
        out(line);
    }
    out("pipeline done\r\n");

    vTaskDelete(NULL);
}

/* Strict "<na> <nb> <pause>": digits, single spaces, nothing else. */
static bool parse_line(const char *s, uint32_t v[3])
{
    for (int f = 0; f < 3; f++) {
        if (*s < '0' || *s > '9') {
            return false;
        }
        uint32_t acc = 0;
        while (*s >= '0' && *s <= '9') {
            acc = acc * 10u + (uint32_t)(*s++ - '0');
            if (acc > 1000u) {
                return false;
            }
        }
        v[f] = acc;
        if (f < 2) {
            if (*s != ' ') {
                return false;
            }
            s++;
        }
    }
    if (*s != '\0') {
        return false;
    }
    return v[0] >= 1u && v[0] <= 500u && v[1] >= 1u && v[1] <= 500u && v[2] <= 200u;
}

static void vSetup(void *pv)
{
    (void)pv;
    char buf[64];
    uint32_t v[3];

    for (;;) {
        unsigned n = 0;
        bool overflow = false;
        for (;;) {
            while (!(uart0->STATE & 0x2u)) {
                vTaskDelay(1);
            }
            char c = (char)uart0->DATA;
            if (c == '\n') {
                break;
            }
            if (n < sizeof buf - 1u) {
                buf[n++] = c;
            } else {
                overflow = true;
            }
        }
        if (n && buf[n - 1] == '\r') {
            n--;
        }
        buf[n] = '\0';

        if (!overflow && parse_line(buf, v)) {
            break;
        }
        out("config error\r\n");
    }

    snprintf(buf, sizeof buf, "config: A %lu, B %lu, pause %lu\r\n",
             (unsigned long)v[0], (unsigned long)v[1], (unsigned long)v[2]);
    out(buf);

    xTaskNotify(xCons, v[2], eSetValueWithOverwrite);
    xTaskNotify(xProdA, v[0], eSetValueWithOverwrite);
    xTaskNotify(xProdB, v[1], eSetValueWithOverwrite);

    vTaskDelete(NULL);
}

int main(void)
{
    uart0->BAUDDIV = 217u;           /* 25 MHz / 115200 */
    uart0->CTRL = 0x1u | 0x2u;

    bool ok = true;
    xPipe = xQueueCreate(4, sizeof(pipe_msg_t));
    ok = ok && (xPipe != NULL);
    ok = ok && xTaskCreate(vConsumer, "consumer", 384, NULL, 3, &xCons) == pdPASS;
    ok = ok && xTaskCreate(vProducer, "prodA", 256, (void *)&cfgA, 2, &xProdA) == pdPASS;
    ok = ok && xTaskCreate(vProducer, "prodB", 256, (void *)&cfgB, 2, &xProdB) == pdPASS;
    ok = ok && xTaskCreate(vSetup, "setup", 384, NULL, 1, NULL) == pdPASS;

    if (!ok) {
        for (;;) { }
    }

    vTaskStartScheduler();
    for (;;) { }
}
