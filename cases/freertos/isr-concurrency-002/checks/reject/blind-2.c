/* defect: the priority value 7 is written unshifted into the IPR byte; with only the top 3 bits implemented it reads back as 0 (highest urgency), above configMAX_SYSCALL_INTERRUPT_PRIORITY, while the handler calls a FromISR API.
 * breaks: "The provided `FreeRTOSConfig.h` defines the interrupt priority settings of the port (3 implemented priority bits)."
 * must_fail: L2, timer_irq_priority_configured
 */
#include <stddef.h>
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"

/* ---- CMSDK TIMER0 ------------------------------------------------------ */
#define TIMER0_BASE         0x40000000UL
#define TIMER0_CTRL         (*(volatile uint32_t *)(TIMER0_BASE + 0x00UL))
#define TIMER0_VALUE        (*(volatile uint32_t *)(TIMER0_BASE + 0x04UL))
#define TIMER0_RELOAD       (*(volatile uint32_t *)(TIMER0_BASE + 0x08UL))
#define TIMER0_INTCLEAR     (*(volatile uint32_t *)(TIMER0_BASE + 0x0CUL))
#define TIMER_CTRL_EN       (1UL << 0)
#define TIMER_CTRL_IRQEN    (1UL << 3)
#define TIMER0_IRQn         8U
#define TIMER_RATE_HZ       10UL

/* ---- CMSDK UART0 ------------------------------------------------------- */
#define UART0_BASE          0x40004000UL
#define UART0_DATA          (*(volatile uint32_t *)(UART0_BASE + 0x00UL))
#define UART0_STATE         (*(volatile uint32_t *)(UART0_BASE + 0x04UL))
#define UART0_CTRL          (*(volatile uint32_t *)(UART0_BASE + 0x08UL))
#define UART0_BAUDDIV       (*(volatile uint32_t *)(UART0_BASE + 0x10UL))
#define UART_STATE_TXFULL   (1UL << 0)
#define UART_CTRL_TXEN      (1UL << 0)
#define UART_BAUD           115200UL

/* ---- NVIC (no CMSIS) --------------------------------------------------- */
#define NVIC_ISER0          (*(volatile uint32_t *)0xE000E100UL)
#define NVIC_ICPR0          (*(volatile uint32_t *)0xE000E280UL)
#define NVIC_IPR_BYTE(n)    (*(volatile uint8_t *)(0xE000E400UL + (n)))

static TaskHandle_t xSamplerTask = NULL;

static void uart_init(void)
{
    UART0_BAUDDIV = configCPU_CLOCK_HZ / UART_BAUD;
    UART0_CTRL = UART_CTRL_TXEN;
}

static void uart_putc(char c)
{
    while (UART0_STATE & UART_STATE_TXFULL) {
    }
    UART0_DATA = (uint32_t)(uint8_t)c;
}

static void uart_puts(const char *s)
{
    while (*s != '\0') {
        uart_putc(*s++);
    }
}

static void uart_put_u32(uint32_t v)
{
    char buf[11];
    int i = 0;

    do {
        buf[i++] = (char)('0' + (v % 10U));
        v /= 10U;
    } while (v != 0U);

    while (i > 0) {
        uart_putc(buf[--i]);
    }
}

void TIMER0_IRQHandler(void)
{
    BaseType_t xHigherPriorityTaskWoken = pdFALSE;

    TIMER0_INTCLEAR = 1UL;
    vTaskNotifyGiveFromISR(xSamplerTask, &xHigherPriorityTaskWoken);
    portYIELD_FROM_ISR(xHigherPriorityTaskWoken);
}

static void prvSamplerTask(void *pvParameters)
{
    uint32_t ulTotal = 0;

    (void)pvParameters;

    for (;;) {
        /* Blocks without CPU use; returns and clears the count of all
         * notifications given since the last call. */
        uint32_t ulNew = ulTaskNotifyTake(pdTRUE, portMAX_DELAY);

        if (ulNew != 0U) {
            ulTotal += ulNew;
            uart_puts("timer events: ");
            uart_put_u32(ulTotal);
            uart_puts("\r\n");
        }
    }
}

static void timer0_init(void)
{
    TIMER0_CTRL = 0UL;
    TIMER0_INTCLEAR = 1UL;
    TIMER0_RELOAD = (configCPU_CLOCK_HZ / TIMER_RATE_HZ) - 1UL;
    TIMER0_VALUE = (configCPU_CLOCK_HZ / TIMER_RATE_HZ) - 1UL;

    /* Lowest-urgency priority for a 3-bit NVIC so FromISR calls are legal. */
    NVIC_IPR_BYTE(TIMER0_IRQn) = (uint8_t)((1U << 3) - 1U);
    NVIC_ICPR0 = (1UL << TIMER0_IRQn);
    NVIC_ISER0 = (1UL << TIMER0_IRQn);

    TIMER0_CTRL = TIMER_CTRL_EN | TIMER_CTRL_IRQEN;
}

int main(void)
{
    uart_init();

    /* The task handle must exist before the interrupt can fire. */
    if (xTaskCreate(prvSamplerTask, "sampler", configMINIMAL_STACK_SIZE * 2U,
                    NULL, tskIDLE_PRIORITY + 2U, &xSamplerTask) != pdPASS) {
        uart_puts("sampler task creation failed\r\n");
        for (;;) {
        }
    }

    timer0_init();

    vTaskStartScheduler();

    /* Only reached if the idle/timer task could not be created. */
    for (;;) {
    }
}
