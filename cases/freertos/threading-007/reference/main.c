/*
 * Readers-writer lock with writer preference for the TS-9 telemetry hub
 * (FreeRTOS V11.1.0).
 *
 * The lock state is guarded by a critical section. A task that cannot take
 * the lock queues a waiter record (on its own stack) and blocks on its
 * direct-to-task notification; whoever makes the lock available hands it
 * over in the same critical section (marks the waiter granted and notifies
 * it), so the waiter owns the lock from that tick on. A waiter that times
 * out takes its record out again; a writer doing so may free the readers it
 * held back, so the hand-over runs again.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "FreeRTOS.h"
#include "task.h"

#include "rwlock.h"

struct waiter {
	struct waiter *next;
	TaskHandle_t task;
	uint8_t is_writer;
	volatile uint8_t granted;
};

struct rwlock {
	uint32_t readers;		/* tasks holding the lock in read mode */
	uint8_t writer;			/* a writer holds it */
	uint32_t writers_waiting;	/* writer records in the wait list */
	struct waiter *head;		/* blocked tasks, oldest first */
	struct waiter *tail;
};

rwlock_t rwlock_create(void)
{
	struct rwlock *l = pvPortMalloc(sizeof *l);

	if (l != NULL) {
		memset(l, 0, sizeof *l);
	}
	return l;
}

/* Caller is in a critical section. */
static void unlink_waiter(struct rwlock *l, struct waiter *w)
{
	struct waiter **pp = &l->head;
	struct waiter *prev = NULL;

	while (*pp != NULL && *pp != w) {
		prev = *pp;
		pp = &(*pp)->next;
	}
	if (*pp == NULL) {
		return;
	}
	*pp = w->next;
	if (l->tail == w) {
		l->tail = prev;
	}
	w->next = NULL;
	if (w->is_writer) {
		l->writers_waiting--;
	}
}

static void hand_to(struct waiter *w)
{
	w->granted = 1u;
	xTaskNotifyGive(w->task);
}

/* Hands the lock to whoever may have it now. Caller is in a critical section. */
static void hand_over(struct rwlock *l)
{
	struct waiter *w;

	if (l->writer) {
		return;
	}
	if (l->writers_waiting > 0u) {
		if (l->readers > 0u) {
			return;		/* the last reader will hand over */
		}
		for (w = l->head; w != NULL; w = w->next) {
			if (w->is_writer) {
				unlink_waiter(l, w);
				l->writer = 1u;
				hand_to(w);
				return;
			}
		}
		return;
	}
	/* no writer waits: every waiting reader comes in */
	while ((w = l->head) != NULL) {
		unlink_waiter(l, w);
		l->readers++;
		hand_to(w);
	}
}

static BaseType_t acquire(struct rwlock *l, int is_writer, TickType_t ticks)
{
	struct waiter me;
	TimeOut_t timeout;

	if (l == NULL) {
		return pdFAIL;
	}
	taskENTER_CRITICAL();
	if (!l->writer && (is_writer ? l->readers == 0u && l->writers_waiting == 0u : l->writers_waiting == 0u)) {
		if (is_writer) {
			l->writer = 1u;
		} else {
			l->readers++;
		}
		taskEXIT_CRITICAL();
		return pdPASS;
	}
	if (ticks == 0u) {
		taskEXIT_CRITICAL();
		return pdFAIL;
	}
	me.next = NULL;
	me.task = xTaskGetCurrentTaskHandle();
	me.is_writer = (uint8_t)(is_writer != 0);
	me.granted = 0u;
	if (l->tail != NULL) {
		l->tail->next = &me;
	} else {
		l->head = &me;
	}
	l->tail = &me;
	if (is_writer) {
		l->writers_waiting++;
	}
	vTaskSetTimeOutState(&timeout);
	taskEXIT_CRITICAL();

	for (;;) {
		(void)ulTaskNotifyTake(pdTRUE, ticks);
		taskENTER_CRITICAL();
		if (me.granted) {
			taskEXIT_CRITICAL();
			return pdPASS;
		}
		if (xTaskCheckForTimeOut(&timeout, &ticks) != pdFALSE) {
			unlink_waiter(l, &me);
			if (is_writer) {
				hand_over(l);	/* readers held back by this writer may go */
			}
			taskEXIT_CRITICAL();
			return pdFAIL;
		}
		taskEXIT_CRITICAL();
	}
}

BaseType_t rwlock_read_lock(rwlock_t lock, TickType_t xTicksToWait)
{
	return acquire(lock, 0, xTicksToWait);
}

BaseType_t rwlock_write_lock(rwlock_t lock, TickType_t xTicksToWait)
{
	return acquire(lock, 1, xTicksToWait);
}

void rwlock_read_unlock(rwlock_t lock)
{
	taskENTER_CRITICAL();
	if (lock->readers > 0u) {
		lock->readers--;
		if (lock->readers == 0u) {
			hand_over(lock);
		}
	}
	taskEXIT_CRITICAL();
}

void rwlock_write_unlock(rwlock_t lock)
{
	taskENTER_CRITICAL();
	lock->writer = 0u;
	hand_over(lock);
	taskEXIT_CRITICAL();
}
