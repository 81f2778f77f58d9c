/* defect: the logger never resets its sample counter k after a run, so the second run continues numbering from the previous run (and ends early).
 * breaks: "Every run starts counting from `k = 1`."
 * must_fail: scenario_runs_restart_at_one
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "FreeRTOS.h"
#include "task.h"
#include "queue.h"
#include "semphr.h"
#include "timers.h"

typedef struct {
    volatile uint32_t DATA;
    volatile uint32_t STATE;
    volatile uint32_t CTRL;
    volatile uint32_t INTSTATUS;
    volatile uint32_t BAUDDIV;
} Uart_t;
#define UART0 ((Uart_t *)0x40004000u)

#define STACK_WORDS_APP 384u

typedef struct {
    uint32_t   n;     /* samples requested in this run */
    TickType_t t0;    /* tick count when the run started */
} RunInfo_t;

/* All kernel object memory lives here, at file scope. */
static struct {
    StaticTask_t      idleTcb;
    StackType_t       idleStack[configMINIMAL_STACK_SIZE];
    StaticTask_t      timerTcb;
    StackType_t       timerStack[configTIMER_TASK_STACK_DEPTH];
    StaticTask_t      controlTcb;
    StackType_t       controlStack[STACK_WORDS_APP];
    StaticTask_t      loggerTcb;
    StackType_t       loggerStack[STACK_WORDS_APP];
    StaticQueue_t     stampQueueCb;
    TickType_t        stampQueueArea[4];
    StaticSemaphore_t printMutexCb;
    StaticSemaphore_t runDoneCb;
    StaticTimer_t     sampleTimerCb;
} mem;

static QueueHandle_t     xStamps;
static SemaphoreHandle_t xPrintLock;
static SemaphoreHandle_t xRunDone;
static TimerHandle_t     xSampleTimer;
static RunInfo_t         run;

void vApplicationGetIdleTaskMemory(StaticTask_t **tcb, StackType_t **stack,
                                   configSTACK_DEPTH_TYPE *depth)
{
    *tcb = &mem.idleTcb;
    *stack = &mem.idleStack[0];
    *depth = configMINIMAL_STACK_SIZE;
}

void vApplicationGetTimerTaskMemory(StaticTask_t **tcb, StackType_t **stack,
                                    configSTACK_DEPTH_TYPE *depth)
{
    *tcb = &mem.timerTcb;
    *stack = &mem.timerStack[0];
    *depth = configTIMER_TASK_STACK_DEPTH;
}

static void say(const char *fmt, ...)
{
    char text[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text - 2, fmt, ap);
    va_end(ap);
    strcat(text, "\r\n");

    xSemaphoreTake(xPrintLock, portMAX_DELAY);
    for (const char *c = text; *c != '\0'; c++) {
        while ((UART0->STATE & 1u) != 0u) { }
        UART0->DATA = (uint32_t)(unsigned char)*c;
    }
    xSemaphoreGive(xPrintLock);
}

static void vSampleExpired(TimerHandle_t xTimer)
{
    QueueHandle_t q = (QueueHandle_t)pvTimerGetTimerID(xTimer);
    const TickType_t stamp = xTaskGetTickCount();
    xQueueSendToBack(q, &stamp, 0);   /* no block in the timer service task */
}

static void vLogger(void *unused)
{
    (void)unused;
    uint32_t k = 0;
    TickType_t stamp;

    for (;;) {
        if (xQueueReceive(xStamps, &stamp, portMAX_DELAY) != pdPASS) {
            continue;
        }
        if (run.n == 0u) {
            continue;
        }
        k++;
        say("sample %lu at +%lu", (unsigned long)k, (unsigned long)(stamp - run.t0));
        if (k >= run.n) {
            xTimerStop(xSampleTimer, portMAX_DELAY);
            run.n = 0;
            xSemaphoreGive(xRunDone);
        }
    }
}

/* Reads one LF-terminated line (CR before LF dropped); 0 on overflow. */
static int readLine(char *dst, size_t cap)
{
    size_t used = 0;
    int fits = 1;
    for (;;) {
        while ((UART0->STATE & 2u) == 0u) {
            vTaskDelay(1);
        }
        char ch = (char)(UART0->DATA & 0xFFu);
        if (ch == '\n') {
            break;
        }
        if (used + 1u < cap) {
            dst[used++] = ch;
        } else {
            fits = 0;
        }
    }
    if (used != 0u && dst[used - 1u] == '\r') {
        used--;
    }
    dst[used] = '\0';
    return fits;
}

static void vControl(void *unused)
{
    (void)unused;
    static char line[48];

    for (;;) {
        char *end = NULL;
        unsigned long n = 0;
        int ok = readLine(line, sizeof line) && line[0] >= '0' && line[0] <= '9';
        if (ok) {
            n = strtoul(line, &end, 10);
            ok = (*end == '\0') && (n >= 1ul) && (n <= 20ul);
        }
        if (!ok) {
            say("error");
            continue;
        }

        say("run: %lu samples", n);
        xQueueReset(xStamps);
        run.n = (uint32_t)n;
        run.t0 = xTaskGetTickCount();
        xTimerReset(xSampleTimer, portMAX_DELAY);   /* starts the dormant timer */

        xSemaphoreTake(xRunDone, portMAX_DELAY);
        say("run done: %lu samples", n);
    }
}

int main(void)
{
    UART0->BAUDDIV = 25000000u / 115200u;
    UART0->CTRL = (1u << 0) | (1u << 1);

    xPrintLock = xSemaphoreCreateMutexStatic(&mem.printMutexCb);
    xRunDone = xSemaphoreCreateBinaryStatic(&mem.runDoneCb);
    xStamps = xQueueCreateStatic(4, sizeof(TickType_t),
                                 (uint8_t *)mem.stampQueueArea, &mem.stampQueueCb);
    xSampleTimer = xTimerCreateStatic("sample", pdMS_TO_TICKS(50), pdTRUE,
                                      (void *)xStamps, vSampleExpired, &mem.sampleTimerCb);

    configASSERT(xPrintLock && xRunDone && xStamps && xSampleTimer);

    xTaskCreateStatic(vLogger, "logger", STACK_WORDS_APP, NULL, 2,
                      mem.loggerStack, &mem.loggerTcb);
    xTaskCreateStatic(vControl, "control", STACK_WORDS_APP, NULL, 1,
                      mem.controlStack, &mem.controlTcb);

    vTaskStartScheduler();

    for (;;) {
    }
}
