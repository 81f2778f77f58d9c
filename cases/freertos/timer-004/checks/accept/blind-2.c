#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"
#include "timers.h"

#define UART0_DATA      (*(volatile uint32_t *)0x40004000UL)
#define UART0_STATE     (*(volatile uint32_t *)0x40004004UL)
#define UART0_CTRL      (*(volatile uint32_t *)0x40004008UL)
#define UART0_BAUDDIV   (*(volatile uint32_t *)0x40004010UL)

#define TARGET_COUNT    5U

static TaskHandle_t reporter_handle = NULL;

static void console_write(const char *s)
{
    for (; *s != '\0'; s++) {
        while (UART0_STATE & 1UL) {
            /* TX buffer full */
        }
        UART0_DATA = (uint8_t)*s;
    }
}

static void console_write_dec(uint32_t value)
{
    char text[12];
    char *p = &text[sizeof(text) - 1U];

    *p = '\0';
    do {
        *--p = (char)('0' + (value % 10U));
        value /= 10U;
    } while (value != 0U);

    console_write(p);
}

/*
 * The expiration count lives in the timer's ID. The callback executes in the
 * timer service task, so it only updates the count and notifies.
 */
static void expiry_cb(TimerHandle_t xTimer)
{
    uintptr_t count = (uintptr_t)pvTimerGetTimerID(xTimer) + 1U;

    vTimerSetTimerID(xTimer, (void *)count);

    if (count == TARGET_COUNT) {
        (void)xTaskNotify(reporter_handle, (uint32_t)count,
                          eSetValueWithOverwrite);
    }
}

static void reporter(void *pvParameters)
{
    TimerHandle_t timer = (TimerHandle_t)pvParameters;
    uint32_t notified = 0U;

    console_write("timer demo: waiting for 5 expirations\r\n");

    while (xTaskNotifyWait(0U, 0xFFFFFFFFUL, &notified, portMAX_DELAY) != pdTRUE) {
    }

    if (xTimerStop(timer, pdMS_TO_TICKS(50)) != pdPASS) {
        console_write("timer demo: stop failed\r\n");
    } else {
        /* Make sure the timer service task has processed the stop. */
        while (xTimerIsTimerActive(timer) != pdFALSE) {
            vTaskDelay(1);
        }
        console_write("timer demo: stopped after ");
        console_write_dec((uint32_t)(uintptr_t)pvTimerGetTimerID(timer));
        console_write(" expirations\r\n");
    }

    for (;;) {
        vTaskSuspend(NULL);
    }
}

int main(void)
{
    TimerHandle_t timer;
    BaseType_t ok = pdFALSE;

    UART0_BAUDDIV = configCPU_CLOCK_HZ / 115200UL;
    UART0_CTRL = 1UL;

    timer = xTimerCreate("expiry", pdMS_TO_TICKS(100), pdTRUE,
                         (void *)0, expiry_cb);
    if (timer != NULL) {
        if (xTaskCreate(reporter, "reporter", 2U * configMINIMAL_STACK_SIZE,
                        (void *)timer, tskIDLE_PRIORITY + 2U,
                        &reporter_handle) == pdPASS) {
            ok = xTimerStart(timer, 0);
        }
    }

    if (ok == pdPASS) {
        vTaskStartScheduler();
    }

    /* Set-up failed (or the scheduler returned): stop here. */
    taskDISABLE_INTERRUPTS();
    for (;;) {
    }
}
