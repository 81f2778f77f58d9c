/*
 * Irrigation valve controller: a monitor task supervises three worker
 * tasks and feeds the CMSDK APB watchdog only while every worker is alive.
 * Target: FreeRTOS V11.1.0, GCC/ARM_CM3, QEMU mps2-an385.
 */
#include <stdint.h>
#include <stddef.h>

#include "FreeRTOS.h"
#include "task.h"
#include "semphr.h"
#include "event_groups.h"

void board_exit(int status);

/* ---------------------------------------------------------------- UART0 */
#define UART0_BASE      0x40004000UL
#define UART0_DATA      (*(volatile uint32_t *)(UART0_BASE + 0x00))
#define UART0_STATE     (*(volatile uint32_t *)(UART0_BASE + 0x04))
#define UART0_CTRL      (*(volatile uint32_t *)(UART0_BASE + 0x08))
#define UART0_BAUDDIV   (*(volatile uint32_t *)(UART0_BASE + 0x10))

#define UART_STATE_TXFULL  (1UL << 0)
#define UART_STATE_RXFULL  (1UL << 1)
#define UART_CTRL_TXEN     (1UL << 0)
#define UART_CTRL_RXEN     (1UL << 1)

#define CORE_CLOCK_HZ   25000000UL
#define UART_BAUD       115200UL

/* ------------------------------------------------------------- watchdog */
#define WDOG_BASE       0x40008000UL
#define WDOG_LOAD       (*(volatile uint32_t *)(WDOG_BASE + 0x000))
#define WDOG_VALUE      (*(volatile uint32_t *)(WDOG_BASE + 0x004))
#define WDOG_CONTROL    (*(volatile uint32_t *)(WDOG_BASE + 0x008))
#define WDOG_INTCLR     (*(volatile uint32_t *)(WDOG_BASE + 0x00C))
#define WDOG_RIS        (*(volatile uint32_t *)(WDOG_BASE + 0x010))
#define WDOG_LOCK       (*(volatile uint32_t *)(WDOG_BASE + 0xC00))

#define WDOG_CTRL_INTEN   (1UL << 0)
#define WDOG_CTRL_RESEN   (1UL << 1)
#define WDOG_UNLOCK_KEY   0x1ACCE551UL
#define WDOG_LOCK_VALUE   0UL
#define WDOG_TIMEOUT_MS   300UL
#define WDOG_LOAD_VALUE   (CORE_CLOCK_HZ / 1000UL * WDOG_TIMEOUT_MS) /* 7 500 000 */

/* ---------------------------------------------------------- application */
#define NUM_WORKERS       3
#define WORKER_PRIORITY   2
#define MONITOR_PRIORITY  4
#define CONSOLE_PRIORITY  1
#define MONITOR_PERIOD_MS 100
#define ALL_CHECKED_IN    ((EventBits_t)((1U << NUM_WORKERS) - 1U))
#define CONSOLE_LINE_MAX  32

typedef struct {
    const char *name;
    TickType_t period_ms;
} worker_info_t;

static const worker_info_t workers[NUM_WORKERS] = {
    { "sensor", 20 },
    { "control", 50 },
    { "comms", 80 },
};

static EventGroupHandle_t checkin_group;
static SemaphoreHandle_t uart_mutex;
static volatile uint8_t worker_stalled[NUM_WORKERS];
static volatile uint32_t worker_work[NUM_WORKERS];

/* ------------------------------------------------------- low-level UART */
static void uart_init(void)
{
    UART0_BAUDDIV = CORE_CLOCK_HZ / UART_BAUD;
    UART0_CTRL = UART_CTRL_TXEN | UART_CTRL_RXEN;
}

static void uart_putc_raw(char c)
{
    while (UART0_STATE & UART_STATE_TXFULL) {
    }
    UART0_DATA = (uint32_t)(uint8_t)c;
}

static void uart_puts_raw(const char *s)
{
    while (*s != '\0')
        uart_putc_raw(*s++);
}

/* Prints the concatenation of up to three parts as one whole line (CR LF)
 * while holding the UART mutex. Task context only. */
static void print_line(const char *a, const char *b, const char *c)
{
    (void)xSemaphoreTake(uart_mutex, portMAX_DELAY);
    uart_puts_raw(a);
    if (b != NULL)
        uart_puts_raw(b);
    if (c != NULL)
        uart_puts_raw(c);
    uart_puts_raw("\r\n");
    (void)xSemaphoreGive(uart_mutex);
}

static const char *u32_to_str(uint32_t v, char *buf, size_t size)
{
    char *p = buf + size - 1;

    *p = '\0';
    do {
        *--p = (char)('0' + v % 10U);
        v /= 10U;
    } while (v != 0U && p > buf);
    return p;
}

/* ------------------------------------------------------------- watchdog */
static void wdog_arm(void)
{
    WDOG_LOCK = WDOG_UNLOCK_KEY;
    WDOG_LOAD = WDOG_LOAD_VALUE;
    WDOG_INTCLR = 1U;
    WDOG_CONTROL = WDOG_CTRL_INTEN | WDOG_CTRL_RESEN;
    WDOG_LOCK = WDOG_LOCK_VALUE;
}

static void wdog_feed(void)
{
    WDOG_LOCK = WDOG_UNLOCK_KEY;
    WDOG_INTCLR = 1U;
    WDOG_LOCK = WDOG_LOCK_VALUE;
}

/* The watchdog interrupt is wired to NMI: above every FreeRTOS priority,
 * so only raw register access here. */
void NMI_Handler(void)
{
    uart_puts_raw("watchdog: NMI, system halted\r\n");
    board_exit(3);
    for (;;) {
    }
}

/* ---------------------------------------------------------------- tasks */
static void worker_task(void *arg)
{
    const uint32_t idx = (uint32_t)(uintptr_t)arg;
    const TickType_t period = pdMS_TO_TICKS(workers[idx].period_ms);
    TickType_t last_wake = xTaskGetTickCount();

    for (;;) {
        (void)xTaskDelayUntil(&last_wake, period);

        if (worker_stalled[idx]) {
            /* stalled: never check in again */
            vTaskSuspend(NULL);
        }

        /* the worker's job */
        worker_work[idx]++;

        (void)xEventGroupSetBits(checkin_group, (EventBits_t)(1U << idx));
    }
}

static void monitor_task(void *arg)
{
    TickType_t last_wake = 0; /* first run at tick 100 */
    uint32_t checks = 0;
    char num[12];

    (void)arg;
    for (;;) {
        (void)xTaskDelayUntil(&last_wake, pdMS_TO_TICKS(MONITOR_PERIOD_MS));

        EventBits_t seen = xEventGroupClearBits(checkin_group, ALL_CHECKED_IN);

        if ((seen & ALL_CHECKED_IN) == ALL_CHECKED_IN) {
            wdog_feed();
            checks++;
            print_line("monitor: check ", u32_to_str(checks, num, sizeof num), " ok");
            continue;
        }

        for (uint32_t w = 0; w < NUM_WORKERS; w++) {
            if ((seen & (1U << w)) == 0U) {
                char line[64];
                char *p = line;
                const char *s;

                for (s = "monitor: worker "; *s; s++) *p++ = *s;
                *p++ = (char)('1' + w);
                for (s = " ("; *s; s++) *p++ = *s;
                for (s = workers[w].name; *s; s++) *p++ = *s;
                for (s = ") missed its check-in"; *s; s++) *p++ = *s;
                *p = '\0';
                print_line(line, NULL, NULL);
            }
        }

        /* stop feeding and stay silent: the watchdog will fire */
        for (;;)
            vTaskSuspend(NULL);
    }
}

static void console_handle(const char *line)
{
    if (line[0] == 's' && line[1] == 't' && line[2] == 'a' && line[3] == 'l' &&
        line[4] == 'l' && line[5] == ' ' && line[6] >= '1' && line[6] <= '3' &&
        line[7] == '\0') {
        char w[2] = { line[6], '\0' };

        print_line("console: worker ", w, " stalled");
        worker_stalled[line[6] - '1'] = 1U;
    } else {
        print_line("console: unknown command", NULL, NULL);
    }
}

static void console_task(void *arg)
{
    char line[CONSOLE_LINE_MAX + 1];
    size_t len = 0;
    int too_long = 0;

    (void)arg;
    for (;;) {
        if ((UART0_STATE & UART_STATE_RXFULL) == 0U) {
            vTaskDelay(1);
            continue;
        }

        char c = (char)(UART0_DATA & 0xFFU);

        if (c == '\n') {
            if (len > 0 && line[len - 1] == '\r')
                len--;
            line[len] = '\0';
            if (too_long)
                print_line("console: unknown command", NULL, NULL);
            else
                console_handle(line);
            len = 0;
            too_long = 0;
        } else if (len < CONSOLE_LINE_MAX) {
            line[len++] = c;
        } else {
            too_long = 1;
        }
    }
}

/* ----------------------------------------------------------------- main */
static void setup_failed(void)
{
    taskDISABLE_INTERRUPTS();
    board_exit(1);
    for (;;) {
    }
}

#if (configCHECK_FOR_STACK_OVERFLOW > 0)
void vApplicationStackOverflowHook(TaskHandle_t task, char *name)
{
    (void)task;
    (void)name;
    setup_failed();
}
#endif

#if (configUSE_MALLOC_FAILED_HOOK == 1)
void vApplicationMallocFailedHook(void)
{
    setup_failed();
}
#endif

int main(void)
{
    static const char *const task_names[NUM_WORKERS] = { "sensor", "control", "comms" };
    BaseType_t ok = pdPASS;

    uart_init();

    checkin_group = xEventGroupCreate();
    uart_mutex = xSemaphoreCreateMutex();
    if (checkin_group == NULL || uart_mutex == NULL)
        setup_failed();

    for (uint32_t i = 0; i < NUM_WORKERS && ok == pdPASS; i++) {
        ok = xTaskCreate(worker_task, task_names[i], configMINIMAL_STACK_SIZE,
                         (void *)(uintptr_t)i, WORKER_PRIORITY, NULL);
    }
    if (ok == pdPASS)
        ok = xTaskCreate(monitor_task, "monitor", configMINIMAL_STACK_SIZE * 2,
                         NULL, MONITOR_PRIORITY, NULL);
    if (ok == pdPASS)
        ok = xTaskCreate(console_task, "console", configMINIMAL_STACK_SIZE * 2,
                         NULL, CONSOLE_PRIORITY, NULL);
    if (ok != pdPASS)
        setup_failed();

    wdog_arm();
    uart_puts_raw("watchdog armed\r\n"); /* no task runs yet */

    vTaskStartScheduler();

    /* only reached if the scheduler could not start */
    setup_failed();
    return 0;
}
