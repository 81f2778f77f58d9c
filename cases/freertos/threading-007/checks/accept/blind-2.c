/*
 * src/main.c - TS-9 telemetry hub: readers-writer lock (writer preferred).
 *
 * Design
 *  - A FreeRTOS mutex serialises every access to the bookkeeping below.
 *  - Waiting readers are released as one batch through an event group.  Every
 *    batch release starts a new "reader generation"; a waiting reader blocks
 *    on the event bit of the generation that will admit it (two bits used
 *    alternately, the bit of the next generation is cleared at every
 *    release).
 *  - Waiting writers sit in a FIFO of stack-allocated records and are woken
 *    one at a time by a direct-to-task notification bit.
 *  - Whoever makes the lock available grants it right away (counts the
 *    released readers as holders / marks the writer as owner) before waking
 *    the tasks, so the hand-over happens in the tick of the release and no
 *    late-comer can overtake a task that was already admitted.
 */
#include <stdint.h>
#include <stddef.h>

#include "FreeRTOS.h"
#include "task.h"
#include "semphr.h"
#include "event_groups.h"

#include "rwlock.h"

#define READER_GEN_BIT(gen)   ((EventBits_t) 1U << ((gen) & 1U))
#define WRITER_GRANT_BIT      0x00000001UL   /* task notification bit */

struct writer_wait {
    struct writer_wait *next;
    TaskHandle_t task;
    BaseType_t granted;
};

struct rwlock {
    SemaphoreHandle_t guard;          /* protects all fields below          */
    EventGroupHandle_t reader_gate;   /* batch release of waiting readers    */

    uint32_t readers;                 /* tasks holding the lock in read mode */
    TaskHandle_t writer;              /* holder in write mode, or NULL       */

    uint32_t readers_waiting;
    uint32_t reader_gen;              /* bumped at every reader batch release */

    struct writer_wait *writers_head; /* FIFO of waiting writers             */
    struct writer_wait **writers_tail;
};

static void guard_take(struct rwlock *rw)
{
    (void) xSemaphoreTake(rw->guard, portMAX_DELAY);
}

static void guard_give(struct rwlock *rw)
{
    (void) xSemaphoreGive(rw->guard);
}

/* Guard held.  Admits all waiting readers together. */
static void release_reader_batch(struct rwlock *rw)
{
    if (rw->readers_waiting == 0U) {
        return;
    }
    rw->readers += rw->readers_waiting;
    rw->readers_waiting = 0U;
    rw->reader_gen++;
    /* Readers that start waiting from now on wait for the other bit. */
    (void) xEventGroupClearBits(rw->reader_gate,
                                READER_GEN_BIT(rw->reader_gen + 1U));
    (void) xEventGroupSetBits(rw->reader_gate, READER_GEN_BIT(rw->reader_gen));
}

/* Guard held, at least one writer waiting.  Makes the first one the owner. */
static void hand_to_writer(struct rwlock *rw)
{
    struct writer_wait *w = rw->writers_head;

    rw->writers_head = w->next;
    if (rw->writers_head == NULL) {
        rw->writers_tail = &rw->writers_head;
    }
    w->next = NULL;
    w->granted = pdTRUE;
    rw->writer = w->task;
    (void) xTaskNotify(w->task, WRITER_GRANT_BIT, eSetBits);
}

/* Guard held.  Removes a writer that gave up from the FIFO. */
static void unlink_writer(struct rwlock *rw, struct writer_wait *me)
{
    struct writer_wait **pp = &rw->writers_head;

    while (*pp != NULL && *pp != me) {
        pp = &(*pp)->next;
    }
    if (*pp == me) {
        *pp = me->next;
        if (rw->writers_tail == &me->next) {
            rw->writers_tail = pp;
        }
    }
}

/*
 * Ticks still to wait, computed right before blocking: the task may have
 * been preempted after the deadline was set, and the kernel's wait functions
 * take a relative block time.
 */
static TickType_t ticks_left(TimeOut_t *to, TickType_t *budget)
{
    if (xTaskCheckForTimeOut(to, budget) != pdFALSE) {
        return 0U;
    }
    return *budget;
}

rwlock_t rwlock_create(void)
{
    struct rwlock *rw = (struct rwlock *) pvPortMalloc(sizeof(struct rwlock));

    if (rw == NULL) {
        return NULL;
    }
    rw->guard = xSemaphoreCreateMutex();
    rw->reader_gate = xEventGroupCreate();
    if (rw->guard == NULL || rw->reader_gate == NULL) {
        if (rw->guard != NULL) {
            vSemaphoreDelete(rw->guard);
        }
        if (rw->reader_gate != NULL) {
            vEventGroupDelete(rw->reader_gate);
        }
        vPortFree(rw);
        return NULL;
    }
    rw->readers = 0U;
    rw->writer = NULL;
    rw->readers_waiting = 0U;
    rw->reader_gen = 0U;
    rw->writers_head = NULL;
    rw->writers_tail = &rw->writers_head;
    return rw;
}

BaseType_t rwlock_read_lock(rwlock_t lock, TickType_t xTicksToWait)
{
    TimeOut_t to;
    uint32_t my_gen;
    EventBits_t my_bit;

    configASSERT(lock != NULL);

    guard_take(lock);
    if (lock->writer == NULL && lock->writers_head == NULL) {
        lock->readers++;
        guard_give(lock);
        return pdPASS;
    }
    if (xTicksToWait == 0U) {
        guard_give(lock);
        return pdFAIL;
    }
    vTaskSetTimeOutState(&to);
    lock->readers_waiting++;
    my_gen = lock->reader_gen;
    my_bit = READER_GEN_BIT(my_gen + 1U);
    guard_give(lock);

    for (;;) {
        EventBits_t bits = xEventGroupWaitBits(lock->reader_gate, my_bit,
                                               pdFALSE, pdTRUE,
                                               ticks_left(&to, &xTicksToWait));
        if ((bits & my_bit) != 0U) {
            /* Our batch was released; we were counted as a holder. */
            return pdPASS;
        }

        guard_take(lock);
        if (lock->reader_gen != my_gen) {
            /* Released just as the wait ended. */
            guard_give(lock);
            return pdPASS;
        }
        if (xTaskCheckForTimeOut(&to, &xTicksToWait) != pdFALSE) {
            lock->readers_waiting--;
            guard_give(lock);
            return pdFAIL;
        }
        guard_give(lock);
    }
}

void rwlock_read_unlock(rwlock_t lock)
{
    configASSERT(lock != NULL);

    guard_take(lock);
    configASSERT(lock->readers > 0U);
    lock->readers--;
    if (lock->readers == 0U && lock->writers_head != NULL) {
        hand_to_writer(lock);
    }
    guard_give(lock);
}

BaseType_t rwlock_write_lock(rwlock_t lock, TickType_t xTicksToWait)
{
    TimeOut_t to;
    struct writer_wait me;
    uint32_t note;

    configASSERT(lock != NULL);

    guard_take(lock);
    if (lock->writer == NULL && lock->readers == 0U) {
        lock->writer = xTaskGetCurrentTaskHandle();
        guard_give(lock);
        return pdPASS;
    }
    if (xTicksToWait == 0U) {
        guard_give(lock);
        return pdFAIL;
    }
    vTaskSetTimeOutState(&to);
    me.next = NULL;
    me.task = xTaskGetCurrentTaskHandle();
    me.granted = pdFALSE;
    *lock->writers_tail = &me;
    lock->writers_tail = &me.next;
    guard_give(lock);

    for (;;) {
        note = 0U;
        (void) xTaskNotifyWait(0U, WRITER_GRANT_BIT, &note,
                               ticks_left(&to, &xTicksToWait));
        if ((note & WRITER_GRANT_BIT) != 0U) {
            return pdPASS;
        }

        guard_take(lock);
        if (me.granted != pdFALSE) {
            /* Granted just as the wait ended: drop the pending bit. */
            guard_give(lock);
            (void) xTaskNotifyStateClear(NULL);
            (void) ulTaskNotifyValueClear(NULL, WRITER_GRANT_BIT);
            return pdPASS;
        }
        if (xTaskCheckForTimeOut(&to, &xTicksToWait) != pdFALSE) {
            unlink_writer(lock, &me);
            /* Readers that were held back only by this writer go now. */
            if (lock->writer == NULL && lock->writers_head == NULL) {
                release_reader_batch(lock);
            }
            guard_give(lock);
            return pdFAIL;
        }
        guard_give(lock);
    }
}

void rwlock_write_unlock(rwlock_t lock)
{
    configASSERT(lock != NULL);

    guard_take(lock);
    configASSERT(lock->writer == xTaskGetCurrentTaskHandle());
    lock->writer = NULL;
    if (lock->writers_head != NULL) {
        hand_to_writer(lock);
    } else {
        release_reader_batch(lock);
    }
    guard_give(lock);
}
