/* swtimer.h - software timers on the SysTick tick (the interface your file
 * implements). */
#ifndef SWTIMER_H
#define SWTIMER_H

#include <stdint.h>

#define SWT_MAX_TIMERS 8u           /* timer ids are 0 .. SWT_MAX_TIMERS - 1 */
#define SWT_MAX_PERIOD 0x7FFFFFFFu  /* longest accepted period, in ticks */

#define SWT_OK      0    /* success */
#define SWT_EINVAL  (-1) /* bad id, period, mode or callback */
#define SWT_EIDLE   (-2) /* swt_stop(): the timer was not running */

typedef enum {
	SWT_ONESHOT = 0,    /* expires once, then is idle */
	SWT_PERIODIC = 1    /* expires every period_ticks until stopped */
} swt_mode;

/* Called from the tick interrupt (inside swt_tick) with the timer's id. */
typedef void (*swt_callback)(unsigned id);

/* Makes every timer idle and sets the tick count to start_tick. */
void swt_init(uint32_t start_tick);

/* Starts (or restarts) timer id: it expires period_ticks ticks from now.
 * Returns SWT_OK, or SWT_EINVAL and changes nothing. */
int swt_start(unsigned id, uint32_t period_ticks, swt_mode mode, swt_callback cb);

/* Stops timer id. Returns SWT_OK if it was running, SWT_EIDLE if it was
 * idle, SWT_EINVAL for a bad id. */
int swt_stop(unsigned id);

/* Called by the tick interrupt: elapsed (1 .. 1000) ticks have passed since
 * the previous call. Runs the callbacks of the timers that expire. */
void swt_tick(uint32_t elapsed);

/* The current tick count (start_tick plus all elapsed ticks, modulo 2^32). */
uint32_t swt_now(void);

#endif
