/*
 * TS-9 readers-writer lock, second design: a FreeRTOS mutex guards the
 * counters, and blocked tasks sleep on one counting semaphore per mode.
 * Whoever changes the state wakes every task that may now proceed (one
 * token per registered waiter); woken tasks re-check the state under the
 * mutex and sleep again with what is left of their timeout. A stale token
 * (its waiter gave up meanwhile) only causes one extra re-check.
 */
#include <stddef.h>
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"
#include "semphr.h"

#include "rwlock.h"

#define WAKE_TOKENS_MAX 16u

struct rwlock {
	SemaphoreHandle_t guard;
	SemaphoreHandle_t readers_go;
	SemaphoreHandle_t writers_go;
	uint16_t active_readers;
	uint16_t readers_blocked;
	uint16_t writers_blocked;
	uint8_t writing;
};

static void wake(SemaphoreHandle_t sem, uint16_t n)
{
	while (n-- > 0u) {
		if (xSemaphoreGive(sem) != pdTRUE) {
			break;	/* already enough tokens for everybody */
		}
	}
}

rwlock_t rwlock_create(void)
{
	struct rwlock *rw = pvPortMalloc(sizeof(struct rwlock));

	if (rw == NULL) {
		return NULL;
	}
	rw->guard = xSemaphoreCreateMutex();
	rw->readers_go = xSemaphoreCreateCounting(WAKE_TOKENS_MAX, 0);
	rw->writers_go = xSemaphoreCreateCounting(WAKE_TOKENS_MAX, 0);
	if (rw->guard == NULL || rw->readers_go == NULL || rw->writers_go == NULL) {
		if (rw->guard != NULL) {
			vSemaphoreDelete(rw->guard);
		}
		if (rw->readers_go != NULL) {
			vSemaphoreDelete(rw->readers_go);
		}
		if (rw->writers_go != NULL) {
			vSemaphoreDelete(rw->writers_go);
		}
		vPortFree(rw);
		return NULL;
	}
	rw->active_readers = 0u;
	rw->readers_blocked = 0u;
	rw->writers_blocked = 0u;
	rw->writing = 0u;
	return rw;
}

BaseType_t rwlock_read_lock(rwlock_t rw, TickType_t xTicksToWait)
{
	TimeOut_t started;
	BaseType_t result;

	vTaskSetTimeOutState(&started);
	(void)xSemaphoreTake(rw->guard, portMAX_DELAY);
	for (;;) {
		if (!rw->writing && rw->writers_blocked == 0u) {
			rw->active_readers++;
			result = pdPASS;
			break;
		}
		if (xTaskCheckForTimeOut(&started, &xTicksToWait) == pdTRUE) {
			result = pdFAIL;
			break;
		}
		rw->readers_blocked++;
		(void)xSemaphoreGive(rw->guard);
		(void)xSemaphoreTake(rw->readers_go, xTicksToWait);
		(void)xSemaphoreTake(rw->guard, portMAX_DELAY);
		rw->readers_blocked--;
	}
	(void)xSemaphoreGive(rw->guard);
	return result;
}

void rwlock_read_unlock(rwlock_t rw)
{
	(void)xSemaphoreTake(rw->guard, portMAX_DELAY);
	rw->active_readers--;
	if (rw->active_readers == 0u && rw->writers_blocked > 0u) {
		wake(rw->writers_go, rw->writers_blocked);
	}
	(void)xSemaphoreGive(rw->guard);
}

BaseType_t rwlock_write_lock(rwlock_t rw, TickType_t xTicksToWait)
{
	TimeOut_t started;
	BaseType_t result;
	int queued = 0;

	vTaskSetTimeOutState(&started);
	(void)xSemaphoreTake(rw->guard, portMAX_DELAY);
	for (;;) {
		if (!rw->writing && rw->active_readers == 0u) {
			rw->writing = 1u;
			result = pdPASS;
			break;
		}
		if (xTaskCheckForTimeOut(&started, &xTicksToWait) == pdTRUE) {
			result = pdFAIL;
			break;
		}
		if (!queued) {
			rw->writers_blocked++;
			queued = 1;
		}
		(void)xSemaphoreGive(rw->guard);
		(void)xSemaphoreTake(rw->writers_go, xTicksToWait);
		(void)xSemaphoreTake(rw->guard, portMAX_DELAY);
	}
	if (queued) {
		rw->writers_blocked--;
		/* a writer giving up may have been all that held readers back */
		if (result == pdFAIL && rw->writers_blocked == 0u && !rw->writing) {
			wake(rw->readers_go, rw->readers_blocked);
		}
	}
	(void)xSemaphoreGive(rw->guard);
	return result;
}

void rwlock_write_unlock(rwlock_t rw)
{
	(void)xSemaphoreTake(rw->guard, portMAX_DELAY);
	rw->writing = 0u;
	if (rw->writers_blocked > 0u) {
		wake(rw->writers_go, rw->writers_blocked);
	} else {
		wake(rw->readers_go, rw->readers_blocked);
	}
	(void)xSemaphoreGive(rw->guard);
}
