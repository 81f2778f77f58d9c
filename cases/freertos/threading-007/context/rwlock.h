/*
 * rwlock.h - readers-writer lock of the TS-9 telemetry hub firmware
 * (FreeRTOS V11.1.0). The calibration table is read by many tasks and
 * rewritten now and then by a writer task: readers share the lock, a writer
 * holds it alone, and waiting writers go before new readers.
 *
 * You implement these functions (and define struct rwlock) in src/main.c.
 */
#ifndef RWLOCK_H
#define RWLOCK_H

#include "FreeRTOS.h"

typedef struct rwlock *rwlock_t;   /* struct rwlock is defined by your file */

/* Creates an unlocked lock. Returns NULL when there is not enough memory. */
rwlock_t rwlock_create(void);

/* Takes the lock in read (shared) mode. Returns pdPASS once the calling task
 * holds it, or pdFAIL when it could not be taken within xTicksToWait ticks
 * (0: do not wait at all; portMAX_DELAY: wait without a time limit). */
BaseType_t rwlock_read_lock(rwlock_t lock, TickType_t xTicksToWait);

/* Gives back a read lock held by the calling task. */
void rwlock_read_unlock(rwlock_t lock);

/* Takes the lock in write (exclusive) mode; return value and xTicksToWait
 * as for rwlock_read_lock. */
BaseType_t rwlock_write_lock(rwlock_t lock, TickType_t xTicksToWait);

/* Gives back the write lock held by the calling task. */
void rwlock_write_unlock(rwlock_t lock);

#endif /* RWLOCK_H */
