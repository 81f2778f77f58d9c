/* defect: a writer whose wait times out only removes itself from the queue; the
 * readers it was holding back stay blocked instead of being admitted at once.
 * breaks: "In particular, a writer whose wait ends without the lock no longer holds readers back: readers that were waiting only because of it get the lock in that tick (when no writer holds it and no other writer is waiting)."
 * must_fail: scenario_writer_timeout_releases_readers
 */
/*
 * src/main.c - readers-writer lock of the TS-9 telemetry hub firmware.
 *
 * The lock state is a handful of counters protected by a critical section.
 * Tasks that cannot take the lock put a waiter record (on their own stack)
 * into a FIFO list and block on their direct-to-task notification.  The task
 * that releases the lock hands it over directly: it updates the lock state on
 * behalf of the waiter(s) it admits, marks their records as granted and
 * notifies them.  The hand-over therefore happens in the very tick of the
 * unlock, and a newly arriving task can never steal a lock that was already
 * handed to a waiter that has not run yet.
 *
 * Writer preference: a reader is admitted only when no writer holds the lock
 * and no writer is waiting.  On a write unlock a waiting writer goes first;
 * the waiting readers are admitted all together only when no writer waits.
 */
#include <stddef.h>

#include "FreeRTOS.h"
#include "task.h"

#include "rwlock.h"

typedef struct rw_waiter {
    struct rw_waiter *next;
    struct rw_waiter *prev;
    TaskHandle_t task;
    volatile BaseType_t granted;
} rw_waiter_t;

typedef struct {
    rw_waiter_t *head;
    rw_waiter_t *tail;
    UBaseType_t count;
} rw_queue_t;

struct rwlock {
    UBaseType_t active_readers;   /* tasks holding the lock in read mode   */
    BaseType_t writer_active;     /* pdTRUE while a writer holds the lock  */
    rw_queue_t waiting_readers;
    rw_queue_t waiting_writers;
};

/* ---- waiter list helpers (call inside a critical section) ------------- */

static void queue_append(rw_queue_t *q, rw_waiter_t *w)
{
    w->next = NULL;
    w->prev = q->tail;
    if (q->tail != NULL) {
        q->tail->next = w;
    } else {
        q->head = w;
    }
    q->tail = w;
    q->count++;
}

static void queue_remove(rw_queue_t *q, rw_waiter_t *w)
{
    if (w->prev != NULL) {
        w->prev->next = w->next;
    } else {
        q->head = w->next;
    }
    if (w->next != NULL) {
        w->next->prev = w->prev;
    } else {
        q->tail = w->prev;
    }
    w->next = NULL;
    w->prev = NULL;
    q->count--;
}

/* Give the lock to the writer at the head of the queue. */
static void grant_next_writer(struct rwlock *l)
{
    rw_waiter_t *w = l->waiting_writers.head;

    queue_remove(&l->waiting_writers, w);
    l->writer_active = pdTRUE;
    w->granted = pdTRUE;
    xTaskNotifyGive(w->task);
}

/* Give the lock to every waiting reader at once. */
static void grant_all_readers(struct rwlock *l)
{
    while (l->waiting_readers.head != NULL) {
        rw_waiter_t *w = l->waiting_readers.head;

        queue_remove(&l->waiting_readers, w);
        l->active_readers++;
        w->granted = pdTRUE;
        xTaskNotifyGive(w->task);
    }
}

/*
 * Common wait loop for readers and writers.  Entered inside a critical
 * section with `w` already queued on `q`; returns pdPASS/pdFAIL with the
 * critical section left.
 */
static BaseType_t wait_for_grant(rw_queue_t *q, rw_waiter_t *w,
                                 TimeOut_t *timeout, TickType_t ticks_left)
{
    for (;;) {
        taskEXIT_CRITICAL();

        (void) ulTaskNotifyTake(pdTRUE, ticks_left);

        taskENTER_CRITICAL();
        if (w->granted != pdFALSE) {
            taskEXIT_CRITICAL();
            /* The lock was handed over.  Drop a notification that may still
             * be pending if the grant raced with the end of the wait; no new
             * one can come as this task is no longer queued. */
            (void) xTaskNotifyStateClear(NULL);
            (void) ulTaskNotifyValueClear(NULL, 0xFFFFFFFFUL);
            return pdPASS;
        }
        if (xTaskCheckForTimeOut(timeout, &ticks_left) != pdFALSE) {
            queue_remove(q, w);
            taskEXIT_CRITICAL();
            return pdFAIL;
        }
        /* Woken without a grant and time is left: wait again. */
    }
}

/* ---- public API ------------------------------------------------------- */

rwlock_t rwlock_create(void)
{
    struct rwlock *l = pvPortMalloc(sizeof(*l));

    if (l != NULL) {
        l->active_readers = 0U;
        l->writer_active = pdFALSE;
        l->waiting_readers.head = NULL;
        l->waiting_readers.tail = NULL;
        l->waiting_readers.count = 0U;
        l->waiting_writers.head = NULL;
        l->waiting_writers.tail = NULL;
        l->waiting_writers.count = 0U;
    }
    return l;
}

BaseType_t rwlock_read_lock(rwlock_t lock, TickType_t xTicksToWait)
{
    rw_waiter_t me;
    TimeOut_t timeout;

    configASSERT(lock != NULL);

    taskENTER_CRITICAL();
    /* The timeout starts at the tick in which the lock is found busy. */
    vTaskSetTimeOutState(&timeout);
    if (lock->writer_active == pdFALSE && lock->waiting_writers.count == 0U) {
        lock->active_readers++;
        taskEXIT_CRITICAL();
        return pdPASS;
    }
    if (xTicksToWait == 0U) {
        taskEXIT_CRITICAL();
        return pdFAIL;
    }
    me.task = xTaskGetCurrentTaskHandle();
    me.granted = pdFALSE;
    queue_append(&lock->waiting_readers, &me);

    return wait_for_grant(&lock->waiting_readers, &me, &timeout, xTicksToWait);
}

void rwlock_read_unlock(rwlock_t lock)
{
    configASSERT(lock != NULL);

    taskENTER_CRITICAL();
    configASSERT(lock->active_readers > 0U);
    lock->active_readers--;
    if (lock->active_readers == 0U && lock->waiting_writers.count > 0U) {
        grant_next_writer(lock);
    }
    taskEXIT_CRITICAL();
}

BaseType_t rwlock_write_lock(rwlock_t lock, TickType_t xTicksToWait)
{
    rw_waiter_t me;
    TimeOut_t timeout;

    configASSERT(lock != NULL);

    taskENTER_CRITICAL();
    /* The timeout starts at the tick in which the lock is found busy. */
    vTaskSetTimeOutState(&timeout);
    if (lock->writer_active == pdFALSE && lock->active_readers == 0U) {
        lock->writer_active = pdTRUE;
        taskEXIT_CRITICAL();
        return pdPASS;
    }
    if (xTicksToWait == 0U) {
        taskEXIT_CRITICAL();
        return pdFAIL;
    }
    me.task = xTaskGetCurrentTaskHandle();
    me.granted = pdFALSE;
    queue_append(&lock->waiting_writers, &me);

    return wait_for_grant(&lock->waiting_writers, &me, &timeout, xTicksToWait);
}

void rwlock_write_unlock(rwlock_t lock)
{
    configASSERT(lock != NULL);

    taskENTER_CRITICAL();
    configASSERT(lock->writer_active != pdFALSE);
    lock->writer_active = pdFALSE;
    if (lock->waiting_writers.count > 0U) {
        grant_next_writer(lock);
    } else if (lock->waiting_readers.count > 0U) {
        grant_all_readers(lock);
    }
    taskEXIT_CRITICAL();
}
