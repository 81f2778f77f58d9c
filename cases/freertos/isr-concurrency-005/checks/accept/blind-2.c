/*
 * Burst pulse counter on QEMU mps2-an385 with FreeRTOS.
 *
 *   console task : reads "burst <n>" commands, arms timer0, waits for the
 *                  burst report and prints it
 *   TIMER0 IRQ   : one event every 50 us, queued with xQueueSendFromISR,
 *                  counted as dropped when the queue is full
 *   worker task  : prints each event and sleeps a tick; once the ISR has
 *                  produced everything and the queue is empty it sends the
 *                  burst report to the console task
 */
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

#include "FreeRTOS.h"
#include "task.h"
#include "queue.h"

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

#define NVIC_ISER  ((volatile uint32_t *)0xE000E100u)
#define NVIC_ICPR  ((volatile uint32_t *)0xE000E280u)
#define NVIC_IPR   ((volatile uint8_t *)0xE000E400u)

#define TIMER0_IRQ 8

typedef struct {
    uint32_t produced;
    uint32_t consumed;
    uint32_t dropped;
} report_t;

static QueueHandle_t events;    /* 8 event numbers, ISR -> worker      */
static QueueHandle_t reports;   /* 1 report, worker -> console          */

/* Written by the ISR while a burst runs, read by the tasks afterwards. */
static volatile uint32_t want;      /* n of the running burst            */
static volatile uint32_t produced;
static volatile uint32_t dropped;
static volatile uint32_t running;   /* a burst is in progress             */

/* ------------------------------------------------------------------ UART */

static void put_char(char c)
{
    while (UART0->STATE & 1u) {     /* TX buffer full */
    }
    UART0->DATA = (uint8_t)c;
}

static void print_line(const char *s)
{
    while (*s) {
        put_char(*s++);
    }
    put_char('\r');
    put_char('\n');
}

/* Appends the decimal form of v to the string at dst. */
static void append_u32(char *dst, uint32_t v)
{
    char tmp[11];
    int i = 0;
    do {
        tmp[i++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0u);
    dst += strlen(dst);
    while (i > 0) {
        *dst++ = tmp[--i];
    }
    *dst = '\0';
}

/* ---------------------------------------------------------------- timer0 */

void TIMER0_IRQHandler(void)
{
    BaseType_t higher_woken = pdFALSE;

    TIMER0->INTCLEAR = 1u;

    if (produced != want) {
        uint32_t number = ++produced;
        if (xQueueSendFromISR(events, &number, &higher_woken) == errQUEUE_FULL) {
            dropped++;
        }
        if (number == want) {
            TIMER0->CTRL = 0u;          /* burst complete */
        }
    }
    portYIELD_FROM_ISR(higher_woken);
}

/* ----------------------------------------------------------------- tasks */

static void worker_task(void *param)
{
    (void)param;
    uint32_t consumed = 0u;

    for (;;) {
        uint32_t number;
        /* Short timeout so that the end of a burst whose last events were
         * all dropped is still noticed. */
        if (xQueueReceive(events, &number, pdMS_TO_TICKS(2)) == pdPASS) {
            char text[24];
            strcpy(text, "event ");
            append_u32(text, number);
            print_line(text);
            vTaskDelay(1);
            consumed++;
        }

        if (running && produced == want &&
            uxQueueMessagesWaiting(events) == 0u) {
            report_t r = { produced, consumed, dropped };
            running = 0u;
            consumed = 0u;
            (void)xQueueSend(reports, &r, portMAX_DELAY);
        }
    }
}

/* Returns the burst size, or 0 when the line is not a valid command. */
static uint32_t parse_command(const char *line)
{
    if (strncmp(line, "burst ", 6) != 0) {
        return 0u;
    }
    const char *digits = line + 6;
    size_t len = strspn(digits, "0123456789");
    if (len == 0u || len > 4u || digits[len] != '\0') {
        return 0u;
    }
    unsigned long n = strtoul(digits, NULL, 10);
    return (n >= 1ul && n <= 1000ul) ? (uint32_t)n : 0u;
}

static void console_task(void *param)
{
    (void)param;
    char line[32];
    size_t len = 0u;
    int too_long = 0;

    for (;;) {
        if ((UART0->STATE & 2u) == 0u) {    /* nothing received yet */
            vTaskDelay(1);
            continue;
        }
        char c = (char)UART0->DATA;
        if (c == '\r') {
            continue;
        }
        if (c != '\n') {
            if (len < sizeof line - 1u) {
                line[len++] = c;
            } else {
                too_long = 1;
            }
            continue;
        }

        line[len] = '\0';
        uint32_t n = too_long ? 0u : parse_command(line);
        len = 0u;
        too_long = 0;

        if (n == 0u) {
            print_line("error");
            continue;
        }

        /* New burst, counted from zero. */
        produced = 0u;
        dropped = 0u;
        want = n;
        running = 1u;
        TIMER0->INTCLEAR = 1u;
        TIMER0->RELOAD = 1249u;     /* 50 us at 25 MHz = 1250 clocks */
        TIMER0->VALUE = 1249u;
        TIMER0->CTRL = (1u << 3) | (1u << 0);   /* IRQ enable | enable */

        report_t r;
        (void)xQueueReceive(reports, &r, portMAX_DELAY);

        char text[80];
        strcpy(text, "burst done: produced ");
        append_u32(text, r.produced);
        strcat(text, " consumed ");
        append_u32(text, r.consumed);
        strcat(text, " dropped ");
        append_u32(text, r.dropped);
        print_line(text);
    }
}

/* ------------------------------------------------------------------ main */

int main(void)
{
    UART0->BAUDDIV = 25000000u / 115200u;   /* 217 */
    UART0->CTRL = 3u;                       /* TX enable | RX enable */

    TIMER0->CTRL = 0u;
    TIMER0->INTCLEAR = 1u;

    /* Priority 6 (of 0..7, upper 3 bits): lower urgency than
     * configMAX_SYSCALL_INTERRUPT_PRIORITY (5), as the FromISR API needs. */
    NVIC_IPR[TIMER0_IRQ] = 6u << 5;
    NVIC_ICPR[0] = 1u << TIMER0_IRQ;
    NVIC_ISER[0] = 1u << TIMER0_IRQ;

    events = xQueueCreate(8, sizeof(uint32_t));
    reports = xQueueCreate(1, sizeof(report_t));

    BaseType_t ok = (events != NULL) && (reports != NULL);
    if (ok) {
        ok = xTaskCreate(worker_task, "worker", 256, NULL, 3, NULL) == pdPASS;
    }
    if (ok) {
        ok = xTaskCreate(console_task, "console", 256, NULL, 2, NULL) == pdPASS;
    }
    if (!ok) {
        taskDISABLE_INTERRUPTS();
        for (;;) {
        }
    }

    vTaskStartScheduler();
    for (;;) {
    }
}
