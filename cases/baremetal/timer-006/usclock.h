/* usclock.h - microsecond clock and timeouts on the CMSDK dual timer
 * (the interface your file implements). */
#ifndef USCLOCK_H
#define USCLOCK_H

#include <stdbool.h>
#include <stdint.h>

#define USCLOCK_MAX_TIMEOUT 0x7FFFFFFFu

typedef struct {
	uint32_t start_us;      /* usclock_now() when the timeout was started */
	uint32_t duration_us;   /* requested length */
} us_timeout;

/* Configures dual timer 1 and its interrupt; from this call on,
 * usclock_now() counts microseconds starting at start_us. */
void usclock_init(uint32_t start_us);

/* Microseconds since usclock_init() plus start_us, modulo 2^32. */
uint32_t usclock_now(void);

/* Dual timer interrupt handler (IRQ 10), entered through the vector table. */
void DUALTIMER_IRQHandler(void);

/* Starts a one-shot timeout of duration_us microseconds from now.
 * Returns 0, or -1 (and leaves *t unchanged) when duration_us is greater
 * than USCLOCK_MAX_TIMEOUT. */
int timeout_start(us_timeout *t, uint32_t duration_us);

/* True once at least duration_us microseconds have passed since the start. */
bool timeout_expired(const us_timeout *t);

/* Microseconds left until the timeout expires; 0 once it has expired. */
uint32_t timeout_remaining(const us_timeout *t);

#endif
