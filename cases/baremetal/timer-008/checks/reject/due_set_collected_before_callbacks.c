/* defect: swt_tick collects the timers due on a tick first and then calls them all, so a timer stopped by an earlier callback of the same tick still runs
 * breaks: "a timer stopped by a callback does not run afterwards, even if it was due in the same swt_tick call"
 * must_fail: scenario_equal_deadlines_in_id_order
 */
#include <stddef.h>
#include <stdint.h>
#include "swtimer.h"
struct e { uint32_t left, period; swt_callback cb; swt_mode mode; int on; };
static struct e tb[SWT_MAX_TIMERS];
static volatile uint32_t cnt;
void swt_init(uint32_t s) { for (unsigned i = 0; i < SWT_MAX_TIMERS; i++) tb[i].on = 0; cnt = s; }
int swt_start(unsigned id, uint32_t p, swt_mode m, swt_callback cb)
{
	if (id >= SWT_MAX_TIMERS || p == 0 || p > SWT_MAX_PERIOD || (m != SWT_ONESHOT && m != SWT_PERIODIC) || !cb) return SWT_EINVAL;
	__asm__ volatile("cpsid i");
	tb[id].left = p; tb[id].period = p; tb[id].cb = cb; tb[id].mode = m; tb[id].on = 1;
	__asm__ volatile("cpsie i");
	return SWT_OK;
}
int swt_stop(unsigned id)
{
	if (id >= SWT_MAX_TIMERS) return SWT_EINVAL;
	int rc = tb[id].on ? SWT_OK : SWT_EIDLE;
	tb[id].on = 0;
	return rc;
}
uint32_t swt_now(void) { return cnt; }
void swt_tick(uint32_t n)
{
	while (n--) {
		cnt++;
		unsigned due = 0;
		for (unsigned i = 0; i < SWT_MAX_TIMERS; i++) {
			if (tb[i].on && --tb[i].left == 0) {
				due |= 1u << i;
				if (tb[i].mode == SWT_PERIODIC) tb[i].left = tb[i].period; else tb[i].on = 0;
			}
		}
		for (unsigned i = 0; i < SWT_MAX_TIMERS; i++)
			if (due & (1u << i)) tb[i].cb(i);
	}
}
