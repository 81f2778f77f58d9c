/*
 * Hidden test bench of timer-008, linked with the answer (src/main.c).
 *
 * main() reads the WHOLE script from UART0 (dual timer 2 runs meanwhile as
 * the QEMU input keep-alive), calls swt_init(start), performs the actions
 * due at relative tick 0, then starts SysTick (every 5000 clocks) and
 * performs the other actions when its own tick counter reaches them.
 * Everything observed is logged in RAM and printed at the end, so printing
 * never disturbs the timing. Script, one command a line, ticks relative to
 * the start tick:
 *   init <start>                          swt_init(start) (first line)
 *   at <rel> start <id> <period> <mode> [null]   thread-mode swt_start
 *   at <rel> stop <id>                    thread-mode swt_stop
 *   at <rel> kick <id> <period> <to>      thread mode: swt_start(id, period,
 *                                         ONESHOT) over and over until rel
 *                                         tick <to>; logs first and last call
 *   on <id> <k> start <id2> <period> <mode>   in the k-th callback of id
 *   on <id> <k> stop <id2>
 *   hold <from> <to>                      SysTick ticks with rel in
 *                                         [from, to) do not call swt_tick;
 *                                         the tick at <to> passes to-from+1
 *   end <rel>                             at that tick: print and exit(0)
 * Output: "t=<tick> id=<id> now=<swt_now()>" for a callback,
 * "t=<tick> start <id> rc=<rc>", "t=<tick> stop <id> rc=<rc>",
 * "end t=<tick> now=<swt_now()> callbacks=<n>".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "swtimer.h"

#define REG(a) (*(volatile uint32_t *)(a))

#define UART0_DATA   0x40004000u
#define UART0_STATE  0x40004004u
#define UART0_CTRL   0x40004008u
#define UART0_BAUD   0x40004010u
#define DT2_LOAD     0x40002020u
#define DT2_CTRL     0x40002028u
#define SYST_CSR     0xE000E010u
#define SYST_RVR     0xE000E014u
#define SYST_CVR     0xE000E018u

enum { K_START, K_STOP, K_KICK };

struct action {
	uint32_t rel;
	uint32_t period;
	uint32_t to;
	int kind;
	unsigned id;
	int mode;
	int nullcb;
};

struct on_action {
	unsigned id;
	uint32_t k;
	int kind;
	unsigned id2;
	uint32_t period;
	int mode;
};

enum { L_CB, L_START, L_STOP };

struct logrec {
	uint8_t type;
	uint8_t id;
	uint32_t t;
	int32_t v;
};

#define MAX_ACT 64
#define MAX_ON  32
#define MAX_LOG 1024

static struct action acts[MAX_ACT];
static unsigned n_acts;
static struct on_action ons[MAX_ON];
static unsigned n_ons;
static uint32_t hold_from = 0xFFFFFFFFu, hold_to = 0xFFFFFFFFu;
static uint32_t end_rel;
static uint32_t start_tick;

static volatile uint32_t bench_tick;
static uint32_t pending;
static struct logrec logbuf[MAX_LOG];
static volatile unsigned n_log;
static volatile unsigned overflow;
static uint32_t fires[256];
static volatile uint32_t total_cb;

static void bench_cb(unsigned id);

static inline uint32_t irq_save(void)
{
	uint32_t p;
	__asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(p)::"memory");
	return p;
}

static inline void irq_restore(uint32_t p)
{
	__asm__ volatile("msr primask, %0" ::"r"(p) : "memory");
}

static void log_add(uint8_t type, unsigned id, uint32_t t, int32_t v)
{
	uint32_t p = irq_save();
	if (n_log < MAX_LOG) {
		logbuf[n_log].type = type;
		logbuf[n_log].id = (uint8_t)id;
		logbuf[n_log].t = t;
		logbuf[n_log].v = v;
		n_log++;
	} else {
		overflow = 1;
	}
	irq_restore(p);
}

void SysTick_Handler(void)
{
	bench_tick++;
	pending++;
	uint32_t rel = bench_tick - start_tick;
	if (rel >= hold_from && rel < hold_to) {
		return;
	}
	uint32_t n = pending;
	pending = 0;
	swt_tick(n);
}

static void bench_cb(unsigned id)
{
	uint32_t now = swt_now();
	total_cb++;
	log_add(L_CB, id, bench_tick, (int32_t)now);
	if (id >= 256u) {
		return;
	}
	uint32_t k = ++fires[id];
	for (unsigned i = 0; i < n_ons; i++) {
		if (ons[i].id != id || ons[i].k != k) {
			continue;
		}
		if (ons[i].kind == K_START) {
			int rc = swt_start(ons[i].id2, ons[i].period, (swt_mode)ons[i].mode, bench_cb);
			log_add(L_START, ons[i].id2, bench_tick, rc);
		} else {
			int rc = swt_stop(ons[i].id2);
			log_add(L_STOP, ons[i].id2, bench_tick, rc);
		}
	}
}

static int getch(void)
{
	while ((REG(UART0_STATE) & 2u) == 0u) {
	}
	return (int)(REG(UART0_DATA) & 0xFFu);
}

static void read_line(char *line, unsigned size)
{
	unsigned n = 0;
	int c;
	while ((c = getch()) != '\n') {
		if (c != '\r' && n < size - 1u) {
			line[n++] = (char)c;
		}
	}
	line[n] = '\0';
}

/* Splits line into at most 8 words. */
static unsigned split(char *line, char **w)
{
	unsigned n = 0;
	char *p = line;
	while (*p != '\0' && n < 8u) {
		while (*p == ' ') {
			p++;
		}
		if (*p == '\0') {
			break;
		}
		w[n++] = p;
		while (*p != '\0' && *p != ' ') {
			p++;
		}
		if (*p == ' ') {
			*p++ = '\0';
		}
	}
	return n;
}

static uint32_t num(const char *s)
{
	return (uint32_t)strtoul(s, NULL, 0);
}

static int mode_of(const char *s)
{
	if (strcmp(s, "oneshot") == 0) {
		return SWT_ONESHOT;
	}
	if (strcmp(s, "periodic") == 0) {
		return SWT_PERIODIC;
	}
	return (int)num(s);
}

static void read_script(void)
{
	char line[120];
	char *w[8];
	for (;;) {
		read_line(line, sizeof(line));
		unsigned n = split(line, w);
		if (n == 0u) {
			continue;
		}
		if (strcmp(w[0], "init") == 0 && n >= 2u) {
			start_tick = num(w[1]);
		} else if (strcmp(w[0], "at") == 0 && n >= 4u && n_acts < MAX_ACT) {
			struct action *a = &acts[n_acts];
			memset(a, 0, sizeof(*a));
			a->rel = num(w[1]);
			a->id = num(w[3]);
			if (strcmp(w[2], "start") == 0 && n >= 6u) {
				a->kind = K_START;
				a->period = num(w[4]);
				a->mode = mode_of(w[5]);
				a->nullcb = (n >= 7u && strcmp(w[6], "null") == 0);
			} else if (strcmp(w[2], "stop") == 0) {
				a->kind = K_STOP;
			} else if (strcmp(w[2], "kick") == 0 && n >= 6u) {
				a->kind = K_KICK;
				a->period = num(w[4]);
				a->to = num(w[5]);
			} else {
				continue;
			}
			n_acts++;
		} else if (strcmp(w[0], "on") == 0 && n >= 5u && n_ons < MAX_ON) {
			struct on_action *o = &ons[n_ons];
			o->id = num(w[1]);
			o->k = num(w[2]);
			o->id2 = num(w[4]);
			if (strcmp(w[3], "start") == 0 && n >= 7u) {
				o->kind = K_START;
				o->period = num(w[5]);
				o->mode = mode_of(w[6]);
			} else if (strcmp(w[3], "stop") == 0) {
				o->kind = K_STOP;
			} else {
				continue;
			}
			n_ons++;
		} else if (strcmp(w[0], "hold") == 0 && n >= 3u) {
			hold_from = num(w[1]);
			hold_to = num(w[2]);
		} else if (strcmp(w[0], "end") == 0 && n >= 2u) {
			end_rel = num(w[1]);
			return;
		}
	}
}

static uint32_t rel_now(void)
{
	return bench_tick - start_tick;
}

static void perform(const struct action *a)
{
	uint32_t t = bench_tick;
	if (a->kind == K_START) {
		int rc = swt_start(a->id, a->period, (swt_mode)a->mode, a->nullcb ? (swt_callback)0 : bench_cb);
		log_add(L_START, a->id, t, rc);
	} else if (a->kind == K_STOP) {
		int rc = swt_stop(a->id);
		log_add(L_STOP, a->id, t, rc);
	} else {
		uint32_t last_t = t;
		int rc = swt_start(a->id, a->period, SWT_ONESHOT, bench_cb);
		log_add(L_START, a->id, t, rc);
		while (rc == SWT_OK && rel_now() < a->to) {
			last_t = bench_tick;
			rc = swt_start(a->id, a->period, SWT_ONESHOT, bench_cb);
		}
		log_add(L_START, a->id, last_t, rc);
	}
}

int main(void)
{
	REG(DT2_LOAD) = 2500u;
	REG(DT2_CTRL) = 0xC2u;   /* enable, periodic, 32-bit, no interrupt */
	REG(UART0_BAUD) = 217u;
	REG(UART0_CTRL) = 0x3u;

	read_script();

	/* stable sort of the thread actions by tick */
	for (unsigned i = 1; i < n_acts; i++) {
		struct action a = acts[i];
		unsigned j = i;
		while (j > 0u && acts[j - 1u].rel > a.rel) {
			acts[j] = acts[j - 1u];
			j--;
		}
		acts[j] = a;
	}

	bench_tick = start_tick;
	swt_init(start_tick);

	unsigned next = 0;
	while (next < n_acts && acts[next].rel == 0u) {
		perform(&acts[next++]);
	}

	REG(SYST_RVR) = 4999u;
	REG(SYST_CVR) = 0u;
	REG(SYST_CSR) = 7u;      /* processor clock, interrupt, enable */

	while (next < n_acts) {
		while (rel_now() < acts[next].rel) {
		}
		perform(&acts[next++]);
	}
	while (rel_now() < end_rel) {
	}
	REG(SYST_CSR) = 0u;

	for (unsigned i = 0; i < n_log; i++) {
		const struct logrec *r = &logbuf[i];
		if (r->type == L_CB) {
			printf("t=%lu id=%u now=%lu\n", (unsigned long)r->t, (unsigned)r->id, (unsigned long)(uint32_t)r->v);
		} else {
			printf("t=%lu %s %u rc=%ld\n", (unsigned long)r->t, r->type == L_START ? "start" : "stop",
			       (unsigned)r->id, (long)r->v);
		}
	}
	if (overflow) {
		printf("log overflow\n");
	}
	printf("end t=%lu now=%lu callbacks=%lu\n", (unsigned long)bench_tick, (unsigned long)swt_now(),
	       (unsigned long)total_cb);
	exit(0);
}
