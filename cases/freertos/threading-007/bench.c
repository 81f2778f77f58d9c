/*
 * Hidden test application for threading-007 (not shown to the model).
 *
 * Reads a script from UART0 before the scheduler starts, creates one lock
 * with rwlock_create() and up to 6 worker tasks that lock and unlock it at
 * scripted ticks, and prints what they observe, stamped with the tick:
 *
 *   task <name> <prio 1..3> <repeat> <op> ...     a worker; its ops run <repeat> times
 *       @<t>     wait until absolute tick t (xTaskDelayUntil from tick 0)
 *       p<n>     wait until the next multiple of n ticks of its own period
 *       d<n>     vTaskDelay(n)
 *       r<n> r*  rwlock_read_lock(l, n) / (l, portMAX_DELAY)
 *       w<n> w*  rwlock_write_lock(l, n) / (l, portMAX_DELAY)
 *       ru wu    unlock (skipped when the task does not hold the lock so)
 *       q        quiet: this worker prints only failures, violations and done
 *   limit <t>   give up at tick t (default 2000)
 *   go          start
 *
 * Lines: "<tick> <name> read ok waited <n>", "... read fail waited <n>",
 * "... write ok|fail waited <n>", "... read unlock", "... write unlock",
 * "<tick> <name> VIOLATION readers <r> writer <w>" (a reader next to a
 * writer, or two writers), "<tick> <name> done", and at the end
 * "end <tick> unfinished <u> violations <v> max_readers <m> longest_write_wait <w>",
 * then the bench exits through semihosting.
 * The bench's own counts lag the lock (incremented after a lock returns,
 * decremented before an unlock), so a VIOLATION is always real.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "FreeRTOS.h"
#include "task.h"

#include "rwlock.h"

#define UART0_DATA   (*(volatile uint32_t *)0x40004000u)
#define UART0_STATE  (*(volatile uint32_t *)0x40004004u)
#define UART0_CTRL   (*(volatile uint32_t *)0x40004008u)
#define UART0_BAUD   (*(volatile uint32_t *)0x40004010u)

#define MAX_TASKS 6
#define MAX_OPS   24

enum { OP_AT, OP_PER, OP_DELAY, OP_RL, OP_WL, OP_RU, OP_WU };

struct op {
	uint8_t kind;
	uint32_t arg;
};

struct worker {
	char name[8];
	UBaseType_t prio;
	uint32_t repeat;
	int quiet;
	int nops;
	struct op ops[MAX_OPS];
	int holds;	/* 0, 'r' or 'w' */
};

static struct worker workers[MAX_TASKS];
static int nworkers;
static rwlock_t the_lock;
static uint32_t limit_tick = 2000u;

static volatile int bench_readers, bench_writers, max_readers, violations, done_count;
static volatile uint32_t longest_write_wait;

/* ------------------------------------------------------------ console */

static void putch(char ch)
{
	while (UART0_STATE & 1u) {
	}
	UART0_DATA = (uint8_t)ch;
}

static void puts_(const char *s)
{
	while (*s) {
		putch(*s++);
	}
}

static void putnum(unsigned long u)
{
	char tmp[12];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + u % 10u);
		u /= 10u;
	} while (u);
	while (n) {
		putch(tmp[--n]);
	}
}

static void nl(void)
{
	putch('\r');
	putch('\n');
}

static int getch(void)
{
	while ((UART0_STATE & 2u) == 0u) {
	}
	return (int)(UART0_DATA & 0xFFu);
}

static void getline_(char *buf, int cap)
{
	int n = 0;

	for (;;) {
		int ch = getch();
		if (ch == '\n') {
			break;
		}
		if (ch == '\r') {
			continue;
		}
		if (n < cap - 1) {
			buf[n++] = (char)ch;
		}
	}
	buf[n] = 0;
}

static const char *word(const char *s, char *out, int cap)
{
	int n = 0;

	while (*s == ' ') {
		s++;
	}
	while (*s && *s != ' ') {
		if (n < cap - 1) {
			out[n++] = *s;
		}
		s++;
	}
	out[n] = 0;
	return s;
}

static uint32_t dec(const char *s)
{
	uint32_t v = 0;

	while (*s >= '0' && *s <= '9') {
		v = v * 10u + (uint32_t)(*s++ - '0');
	}
	return v;
}

static void sh_exit(void)
{
	/* semihosting SYS_EXIT, ADP_Stopped_ApplicationExit */
	register uint32_t r0 __asm__("r0") = 0x18u;
	register uint32_t r1 __asm__("r1") = 0x20026u;

	__asm__ volatile("bkpt 0xAB" : : "r"(r0), "r"(r1) : "memory");
	for (;;) {
	}
}

/* ------------------------------------------------------------ workers */

static void stamp(const struct worker *w)
{
	putnum((unsigned long)xTaskGetTickCount());
	putch(' ');
	puts_(w->name);
	putch(' ');
}

static void acquired(struct worker *w, int write, BaseType_t rc, uint32_t waited)
{
	taskENTER_CRITICAL();
	if (rc == pdPASS) {
		if (write ? (bench_readers > 0 || bench_writers > 0) : bench_writers > 0) {
			violations++;
			stamp(w);
			puts_("VIOLATION readers ");
			putnum((unsigned long)bench_readers);
			puts_(" writer ");
			putnum((unsigned long)bench_writers);
			nl();
		}
		if (write) {
			bench_writers++;
			if (waited > longest_write_wait) {
				longest_write_wait = waited;
			}
		} else {
			bench_readers++;
			if (bench_readers > max_readers) {
				max_readers = bench_readers;
			}
		}
		w->holds = write ? 'w' : 'r';
	}
	if (!w->quiet || rc != pdPASS) {
		stamp(w);
		puts_(write ? "write " : "read ");
		puts_(rc == pdPASS ? "ok" : rc == pdFAIL ? "fail" : "bad-return");
		puts_(" waited ");
		putnum((unsigned long)waited);
		nl();
	}
	taskEXIT_CRITICAL();
}

static void releasing(struct worker *w, int write)
{
	taskENTER_CRITICAL();
	if (write) {
		bench_writers--;
	} else {
		bench_readers--;
	}
	w->holds = 0;
	if (!w->quiet) {
		stamp(w);
		puts_(write ? "write unlock" : "read unlock");
		nl();
	}
	taskEXIT_CRITICAL();
}

static void worker_task(void *arg)
{
	struct worker *w = arg;
	TickType_t wake = 0, period_wake = 0;
	uint32_t k;
	int i;

	for (k = 0; k < w->repeat; k++) {
		for (i = 0; i < w->nops; i++) {
			const struct op *o = &w->ops[i];
			TickType_t t0;
			BaseType_t rc;

			switch (o->kind) {
			case OP_AT:
				if ((TickType_t)o->arg > xTaskGetTickCount()) {
					wake = 0;
					(void)xTaskDelayUntil(&wake, (TickType_t)o->arg);
				}
				break;
			case OP_PER:
				(void)xTaskDelayUntil(&period_wake, (TickType_t)o->arg);
				break;
			case OP_DELAY:
				vTaskDelay((TickType_t)o->arg);
				break;
			case OP_RL:
			case OP_WL:
				if (w->holds) {
					break;
				}
				t0 = xTaskGetTickCount();
				rc = o->kind == OP_RL ? rwlock_read_lock(the_lock, (TickType_t)o->arg)
						      : rwlock_write_lock(the_lock, (TickType_t)o->arg);
				acquired(w, o->kind == OP_WL, rc, (uint32_t)(xTaskGetTickCount() - t0));
				break;
			case OP_RU:
				if (w->holds == 'r') {
					releasing(w, 0);
					rwlock_read_unlock(the_lock);
				}
				break;
			case OP_WU:
				if (w->holds == 'w') {
					releasing(w, 1);
					rwlock_write_unlock(the_lock);
				}
				break;
			default:
				break;
			}
		}
	}
	taskENTER_CRITICAL();
	stamp(w);
	puts_("done");
	nl();
	done_count++;
	taskEXIT_CRITICAL();
	vTaskSuspend(NULL);
}

static void monitor_task(void *arg)
{
	(void)arg;
	for (;;) {
		vTaskDelay(1);
		if (done_count >= nworkers || xTaskGetTickCount() >= limit_tick) {
			taskENTER_CRITICAL();
			puts_("end ");
			putnum((unsigned long)xTaskGetTickCount());
			puts_(" unfinished ");
			putnum((unsigned long)(nworkers - done_count));
			puts_(" violations ");
			putnum((unsigned long)violations);
			puts_(" max_readers ");
			putnum((unsigned long)max_readers);
			puts_(" longest_write_wait ");
			putnum((unsigned long)longest_write_wait);
			nl();
			sh_exit();
		}
	}
}

/* ------------------------------------------------------------ main */

static void bad(const char *what)
{
	puts_("bad script: ");
	puts_(what);
	nl();
	sh_exit();
}

static void parse_task(const char *s)
{
	struct worker *w;
	char tok[16];

	if (nworkers >= MAX_TASKS) {
		bad("too many tasks");
	}
	w = &workers[nworkers];
	s = word(s, w->name, sizeof w->name);
	s = word(s, tok, sizeof tok);
	w->prio = dec(tok);
	s = word(s, tok, sizeof tok);
	w->repeat = dec(tok);
	if (w->name[0] == 0 || w->prio < 1 || w->prio > 3 || w->repeat < 1) {
		bad("task");
	}
	for (;;) {
		struct op *o;

		s = word(s, tok, sizeof tok);
		if (tok[0] == 0) {
			break;
		}
		if (strcmp(tok, "q") == 0) {
			w->quiet = 1;
			continue;
		}
		if (w->nops >= MAX_OPS) {
			bad("too many ops");
		}
		o = &w->ops[w->nops++];
		if (strcmp(tok, "ru") == 0) {
			o->kind = OP_RU;
		} else if (strcmp(tok, "wu") == 0) {
			o->kind = OP_WU;
		} else if (tok[0] == '@') {
			o->kind = OP_AT;
			o->arg = dec(tok + 1);
		} else if (tok[0] == 'p') {
			o->kind = OP_PER;
			o->arg = dec(tok + 1);
		} else if (tok[0] == 'd') {
			o->kind = OP_DELAY;
			o->arg = dec(tok + 1);
		} else if (tok[0] == 'r' || tok[0] == 'w') {
			o->kind = tok[0] == 'r' ? OP_RL : OP_WL;
			o->arg = tok[1] == '*' ? (uint32_t)portMAX_DELAY : dec(tok + 1);
		} else {
			bad(tok);
		}
	}
	nworkers++;
}

int main(void)
{
	char line[160], cmd[16];
	int i;

	UART0_BAUD = 217u;
	UART0_CTRL = 3u;
	/* QEMU hands console input over from its main loop, which a busy
	 * polling loop alone may leave asleep: the periodic dual-timer 2
	 * (100 us, interrupt off) keeps virtual-timer events coming. */
	*(volatile uint32_t *)0x40002020u = 2500u;	/* Timer2Load */
	*(volatile uint32_t *)0x40002028u = 0xC2u;	/* enable, periodic, 32-bit */

	for (;;) {
		const char *s;

		getline_(line, sizeof line);
		s = word(line, cmd, sizeof cmd);
		if (strcmp(cmd, "task") == 0) {
			parse_task(s);
		} else if (strcmp(cmd, "limit") == 0) {
			word(s, cmd, sizeof cmd);
			limit_tick = dec(cmd);
		} else if (strcmp(cmd, "go") == 0) {
			break;
		} else if (cmd[0] != 0) {
			bad(cmd);
		}
	}

	the_lock = rwlock_create();
	if (the_lock == NULL) {
		bad("rwlock_create returned NULL");
	}
	for (i = 0; i < nworkers; i++) {
		if (xTaskCreate(worker_task, workers[i].name, 256, &workers[i], workers[i].prio, NULL) != pdPASS) {
			bad("xTaskCreate");
		}
	}
	if (xTaskCreate(monitor_task, "monitor", 256, NULL, 4, NULL) != pdPASS) {
		bad("xTaskCreate");
	}
	puts_("start");
	nl();
	vTaskStartScheduler();
	bad("scheduler returned");
	return 0;
}
