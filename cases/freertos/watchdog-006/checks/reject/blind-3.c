/* defect: the NMI handler prints through console_line(), which calls vTaskSuspendAll()/xTaskResumeAll() from the NMI.
 * breaks: "It runs above every FreeRTOS interrupt priority, so it must not call any FreeRTOS function."
 * must_fail: nmi_handler_no_freertos, scenario_nmi_ends_run
 */
/* src/main.c - irrigation valve controller, task supervision over the
 * CMSDK APB watchdog (QEMU mps2-an385, FreeRTOS V11.1.0, ARM_CM3 port). */
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

#include "FreeRTOS.h"
#include "task.h"

void board_exit(int status);

#define REG32(addr) (*(volatile uint32_t *)(addr))

/* UART0 (CMSDK APB UART) */
#define UART_DATA     REG32(0x40004000u)
#define UART_STATE    REG32(0x40004004u)
#define UART_CTRL     REG32(0x40004008u)
#define UART_BAUDDIV  REG32(0x40004010u)

/* Watchdog (CMSDK APB watchdog), interrupt on NMI */
#define WDT_LOAD      REG32(0x40008000u)
#define WDT_CONTROL   REG32(0x40008008u)
#define WDT_INTCLR    REG32(0x4000800Cu)
#define WDT_LOCK      REG32(0x40008C00u)

#define WDT_KEY       0x1ACCE551u

/* 300 ms at 25 MHz: the counter needs 7 500 000 clocks from LOAD to 0 */
#define WDT_RELOAD    7500000u

typedef struct {
    const char *name;
    TickType_t period;      /* ticks (1 ms) */
    volatile uint32_t checkins;
    volatile bool stalled;
} worker_t;

static worker_t worker[3] = {
    { "sensor",  20, 0, false },
    { "control", 50, 0, false },
    { "comms",   80, 0, false },
};

/* ---- console output ------------------------------------------------ */

static void tx_byte(char ch)
{
    while ((UART_STATE & 1u) != 0u) {
        /* TX buffer full */
    }
    UART_DATA = (uint8_t)ch;
}

static void tx_string(const char *s)
{
    for (; *s != '\0'; ++s) {
        tx_byte(*s);
    }
}

/* Sends one complete line (text + CR LF). The scheduler is suspended for
 * the duration so no other task can start a line in the middle of it. */
static void console_line(const char *text)
{
    vTaskSuspendAll();
    tx_string(text);
    tx_string("\r\n");
    (void)xTaskResumeAll();
}

/* Appends src to dst (capacity cap) and returns the new end. */
static char *append(char *dst, const char *end, const char *src)
{
    while (*src != '\0' && dst < end) {
        *dst++ = *src++;
    }
    *dst = '\0';
    return dst;
}

static char *append_uint(char *dst, const char *end, unsigned long v)
{
    char tmp[11];
    int n = 0;

    do {
        tmp[n++] = (char)('0' + (v % 10ul));
        v /= 10ul;
    } while (v != 0ul);
    while (n > 0 && dst < end) {
        *dst++ = tmp[--n];
    }
    *dst = '\0';
    return dst;
}

/* ---- watchdog ------------------------------------------------------ */

static void wdt_start(void)
{
    WDT_LOCK = WDT_KEY;
    WDT_LOAD = WDT_RELOAD;      /* also restarts the counter */
    WDT_CONTROL = 0x3u;         /* INTEN | RESEN */
    WDT_LOCK = 0u;
}

static void wdt_kick(void)
{
    WDT_LOCK = WDT_KEY;
    WDT_INTCLR = 1u;
    WDT_LOCK = 0u;
}

void NMI_Handler(void)
{
    console_line("watchdog: NMI, system halted");
    board_exit(3);
    while (1) {
    }
}

/* ---- tasks --------------------------------------------------------- */

static void worker_entry(void *param)
{
    worker_t *self = (worker_t *)param;
    TickType_t wake = xTaskGetTickCount();
    uint32_t valve_state = 0;

    for (;;) {
        if (self->stalled) {
            /* a stalled worker blocks for ever and never checks in again */
            vTaskSuspend(NULL);
            continue;
        }

        /* the job: a stand-in for sampling / valve control / telemetry */
        valve_state = valve_state * 1103515245u + 12345u;

        /* check in */
        self->checkins = self->checkins + 1u;

        xTaskDelayUntil(&wake, self->period);
    }
}

static void monitor_entry(void *param)
{
    uint32_t seen[3];
    unsigned long passes = 0;
    TickType_t wake;
    (void)param;

    /* baseline at scheduler start (tick 0), before any worker ran */
    for (int i = 0; i < 3; i++) {
        seen[i] = worker[i].checkins;
    }
    wake = 0;

    for (;;) {
        xTaskDelayUntil(&wake, pdMS_TO_TICKS(100));

        bool missed[3];
        bool healthy = true;
        for (int i = 0; i < 3; i++) {
            uint32_t now = worker[i].checkins;
            missed[i] = (now == seen[i]);
            seen[i] = now;
            if (missed[i]) {
                healthy = false;
            }
        }

        if (healthy) {
            char msg[40];
            char *end = msg + sizeof msg - 1;
            char *p = append(msg, end, "monitor: check ");
            p = append_uint(p, end, ++passes);
            (void)append(p, end, " ok");
            wdt_kick();
            console_line(msg);
            continue;
        }

        for (int i = 0; i < 3; i++) {
            if (missed[i]) {
                char msg[64];
                char *end = msg + sizeof msg - 1;
                char *p = append(msg, end, "monitor: worker ");
                p = append_uint(p, end, (unsigned long)(i + 1));
                p = append(p, end, " (");
                p = append(p, end, worker[i].name);
                (void)append(p, end, ") missed its check-in");
                console_line(msg);
            }
        }

        /* no more feeding, no more output: let the watchdog bite */
        for (;;) {
            vTaskDelay(portMAX_DELAY);
        }
    }
}

static void console_entry(void *param)
{
    char cmd[24];
    size_t n = 0;
    bool overflow = false;
    (void)param;

    for (;;) {
        while ((UART_STATE & 2u) == 0u) {
            vTaskDelay(pdMS_TO_TICKS(2));
        }
        char ch = (char)UART_DATA;

        if (ch != '\n') {
            if (n < sizeof cmd - 1) {
                cmd[n++] = ch;
            } else {
                overflow = true;
            }
            continue;
        }

        if (n > 0 && cmd[n - 1] == '\r') {
            n--;
        }
        cmd[n] = '\0';

        if (!overflow && n == 7 && strncmp(cmd, "stall ", 6) == 0 &&
            cmd[6] >= '1' && cmd[6] <= '3') {
            static char reply[] = "console: worker ? stalled";
            reply[16] = cmd[6];
            console_line(reply);
            worker[cmd[6] - '1'].stalled = true;
        } else {
            console_line("console: unknown command");
        }
        n = 0;
        overflow = false;
    }
}

/* ---- start-up ------------------------------------------------------ */

static void halt_setup(void)
{
    portDISABLE_INTERRUPTS();
    board_exit(1);
    for (;;) {
    }
}

int main(void)
{
    /* UART0: 115200 baud from the 25 MHz core clock, TX and RX on */
    UART_BAUDDIV = 25000000u / 115200u;
    UART_CTRL = 0x3u;

    static const char *const names[3] = { "sensor", "control", "comms" };
    bool ok = true;

    for (int i = 0; i < 3 && ok; i++) {
        ok = xTaskCreate(worker_entry, names[i], configMINIMAL_STACK_SIZE,
                         &worker[i], 2, NULL) == pdPASS;
    }
    ok = ok && xTaskCreate(monitor_entry, "monitor", 2 * configMINIMAL_STACK_SIZE,
                           NULL, 4, NULL) == pdPASS;
    ok = ok && xTaskCreate(console_entry, "console", 2 * configMINIMAL_STACK_SIZE,
                           NULL, 1, NULL) == pdPASS;
    if (!ok) {
        halt_setup();
    }

    wdt_start();
    tx_string("watchdog armed\r\n");

    vTaskStartScheduler();

    /* not enough heap for the idle task: stop here */
    halt_setup();
    return 0;
}
