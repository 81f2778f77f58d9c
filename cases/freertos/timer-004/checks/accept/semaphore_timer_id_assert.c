#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"
#include "timers.h"
#include "semphr.h"

typedef struct {
	volatile uint32_t DATA;
	volatile uint32_t STATE;
	volatile uint32_t CTRL;
	volatile uint32_t INTSTATUS;
	volatile uint32_t BAUDDIV;
} CmsdkUart;

#define UART0 ((CmsdkUart *)0x40004000UL)

#define mainTIMER_PERIOD   pdMS_TO_TICKS(100UL)
#define mainEXPIRY_LIMIT   5UL

static SemaphoreHandle_t xFifthExpiry = NULL;

static void prvWrite(const char *pcText)
{
	for (; *pcText != '\0'; pcText++) {
		while ((UART0->STATE & 1UL) != 0UL) {
		}
		UART0->DATA = (uint32_t)(uint8_t)*pcText;
	}
}

static void prvWriteNumber(uint32_t ulValue)
{
	char cBuffer[11];
	char *pcDigit = &cBuffer[10];

	*pcDigit = '\0';
	do {
		*--pcDigit = (char)('0' + (ulValue % 10UL));
		ulValue /= 10UL;
	} while (ulValue != 0UL);
	prvWrite(pcDigit);
}

/* The expiry count lives in the timer's ID, updated only by the timer service task. */
static void prvOnExpiry(TimerHandle_t xTimer)
{
	const uint32_t ulCount = (uint32_t)(uintptr_t)pvTimerGetTimerID(xTimer) + 1UL;

	vTimerSetTimerID(xTimer, (void *)(uintptr_t)ulCount);
	if (ulCount == mainEXPIRY_LIMIT) {
		(void)xSemaphoreGive(xFifthExpiry);
	}
}

static void prvReporter(void *pvParameters)
{
	TimerHandle_t xTimer = (TimerHandle_t)pvParameters;
	BaseType_t xStopped;

	prvWrite("timer demo: waiting for 5 expirations\r\n");

	for (;;) {
		if (xSemaphoreTake(xFifthExpiry, portMAX_DELAY) != pdTRUE) {
			continue;
		}
		xStopped = xTimerStop(xTimer, portMAX_DELAY);
		if (xStopped == pdPASS) {
			prvWrite("timer demo: stopped after ");
			prvWriteNumber((uint32_t)(uintptr_t)pvTimerGetTimerID(xTimer));
			prvWrite(" expirations\r\n");
		} else {
			prvWrite("timer demo: stop failed\r\n");
		}
	}
}

int main(void)
{
	TimerHandle_t xTimer;
	BaseType_t xOk;

	UART0->BAUDDIV = configCPU_CLOCK_HZ / 115200UL;
	UART0->CTRL = 1UL;

	xFifthExpiry = xSemaphoreCreateBinary();
	configASSERT(xFifthExpiry != NULL);

	xTimer = xTimerCreate("Expiry", mainTIMER_PERIOD, (UBaseType_t)pdTRUE, (void *)0, prvOnExpiry);
	configASSERT(xTimer != NULL);

	xOk = xTaskCreate(prvReporter, "reporter", 256, (void *)xTimer, 1, NULL);
	configASSERT(xOk == pdPASS);

	xOk = xTimerStart(xTimer, portMAX_DELAY);
	configASSERT(xOk == pdPASS);

	vTaskStartScheduler();

	for (;;) {
	}
}
