#include <stddef.h>
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"

typedef struct {
    volatile uint32_t CTRL;       /* 0x00 */
    volatile uint32_t VALUE;      /* 0x04 */
    volatile uint32_t RELOAD;     /* 0x08 */
    volatile uint32_t INTCLEAR;   /* 0x0C (reads as INTSTATUS) */
} cmsdk_timer_t;

typedef struct {
    volatile uint32_t DATA;       /* 0x00 */
    volatile uint32_t STATE;      /* 0x04 */
    volatile uint32_t CTRL;       /* 0x08 */
    volatile uint32_t INTSTATUS;  /* 0x0C */
    volatile uint32_t BAUDDIV;    /* 0x10 */
} cmsdk_uart_t;

#define TIMER0              ((cmsdk_timer_t *)0x40000000UL)
#define UART0               ((cmsdk_uart_t *)0x40004000UL)

#define NVIC_ISER           ((volatile uint32_t *)0xE000E100UL)
#define NVIC_IP             ((volatile uint8_t *)0xE000E400UL)

#define TIMER0_IRQ_NUM      8U
#define SAMPLE_RATE_HZ      10U

static TaskHandle_t sampler_handle;

static void serial_write(const char *s)
{
    for (; *s; s++) {
        while (UART0->STATE & 1UL) {
            /* TX buffer full */
        }
        UART0->DATA = (uint8_t)*s;
    }
}

static void report_total(uint32_t total)
{
    char line[40] = "timer events: ";
    char digits[10];
    unsigned n = 0;
    unsigned pos = 14;   /* strlen("timer events: ") */

    do {
        digits[n++] = (char)('0' + total % 10U);
        total /= 10U;
    } while (total);
    while (n) {
        line[pos++] = digits[--n];
    }
    line[pos++] = '\r';
    line[pos++] = '\n';
    line[pos] = '\0';
    serial_write(line);
}

void TIMER0_IRQHandler(void)
{
    BaseType_t woken = pdFALSE;

    TIMER0->INTCLEAR = 1UL;
    xTaskNotifyFromISR(sampler_handle, 1U, eIncrement, &woken);
    portYIELD_FROM_ISR(woken);
}

static void sampler(void *arg)
{
    uint32_t total = 0;
    uint32_t pending;

    (void)arg;

    /* Start the timer only now: the handle is valid and we are ready. */
    NVIC_IP[TIMER0_IRQ_NUM] = (uint8_t)configKERNEL_INTERRUPT_PRIORITY;
    NVIC_ISER[TIMER0_IRQ_NUM / 32U] = 1UL << (TIMER0_IRQ_NUM % 32U);
    TIMER0->CTRL = 0x1UL | 0x8UL;

    for (;;) {
        /* Atomically read and zero the notification value (event count). */
        if (xTaskNotifyWait(0UL, 0xFFFFFFFFUL, &pending, portMAX_DELAY) == pdTRUE
            && pending > 0U) {
            total += pending;
            report_total(total);
        }
    }
}

static void hw_setup(void)
{
    UART0->BAUDDIV = configCPU_CLOCK_HZ / 115200UL;
    UART0->CTRL = 1UL;

    TIMER0->CTRL = 0UL;
    TIMER0->INTCLEAR = 1UL;
    TIMER0->RELOAD = configCPU_CLOCK_HZ / SAMPLE_RATE_HZ - 1UL;
    TIMER0->VALUE = configCPU_CLOCK_HZ / SAMPLE_RATE_HZ - 1UL;
}

int main(void)
{
    BaseType_t ok;

    hw_setup();

    ok = xTaskCreate(sampler, "sampler", 2U * configMINIMAL_STACK_SIZE, NULL,
                     configMAX_PRIORITIES - 1U, &sampler_handle);
    if (ok != pdPASS) {
        serial_write("setup failed\r\n");
        taskDISABLE_INTERRUPTS();
        for (;;) {
        }
    }

    vTaskStartScheduler();

    taskDISABLE_INTERRUPTS();
    for (;;) {
    }
}
