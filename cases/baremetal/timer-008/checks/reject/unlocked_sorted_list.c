/* defect: a deadline-sorted list edited in swt_start/swt_stop without masking the tick interrupt; the tick handler relinks periodic nodes in the middle of an edit and timers drop out of the list
 * breaks: "swt_start and swt_stop called from thread mode must be safe against the tick interrupt"
 * must_fail: scenario_thread_restarts_vs_tick
 */
#include <stddef.h>
#include <stdint.h>
#include "swtimer.h"
struct n { struct n *next; uint32_t dl, per; swt_callback cb; swt_mode m; int on; unsigned id; };
static struct n nodes[SWT_MAX_TIMERS];
static struct n *head;
static volatile uint32_t now;
static int bef(uint32_t a, uint32_t b) { return (int32_t)(a - b) < 0; }
static void unlink_(struct n *x) { struct n **pp = &head; while (*pp) { if (*pp == x) { *pp = x->next; break; } pp = &(*pp)->next; } x->on = 0; }
static void insert(struct n *x) { struct n **pp = &head; while (*pp && !bef(x->dl, (*pp)->dl) ) { if ((*pp)->dl == x->dl && (*pp)->id > x->id) break; pp = &(*pp)->next; } x->next = *pp; *pp = x; x->on = 1; }
void swt_init(uint32_t s) { head = NULL; for (unsigned i = 0; i < SWT_MAX_TIMERS; i++) { nodes[i].on = 0; nodes[i].id = i; } now = s; }
int swt_start(unsigned id, uint32_t p, swt_mode m, swt_callback cb)
{
	if (id >= SWT_MAX_TIMERS || p == 0 || p > SWT_MAX_PERIOD || (m != SWT_ONESHOT && m != SWT_PERIODIC) || !cb) return SWT_EINVAL;
	struct n *x = &nodes[id];
	if (x->on) unlink_(x);
	x->per = p; x->m = m; x->cb = cb; x->dl = now + p;
	insert(x);
	return SWT_OK;
}
int swt_stop(unsigned id) { if (id >= SWT_MAX_TIMERS) return SWT_EINVAL; if (!nodes[id].on) return SWT_EIDLE; unlink_(&nodes[id]); return SWT_OK; }
uint32_t swt_now(void) { return now; }
void swt_tick(uint32_t e)
{
	uint32_t target = now + e;
	while (head && !bef(target, head->dl)) {
		struct n *x = head;
		head = x->next; x->on = 0;
		now = x->dl;
		if (x->m == SWT_PERIODIC) { x->dl += x->per; insert(x); }
		x->cb(x->id);
	}
	now = target;
}
