/*
 * Hidden test application for memory-opt-004 (not shown to the model).
 *
 * Reads a script from UART0, one command a line, drives the pool of
 * src/main.c and prints results on UART0:
 *
 *   init <misalign> <size> <block>   pool_init(&pool, arena + misalign, size, block)
 *   initnull <size> <block>          pool_init(&pool, NULL, size, block)
 *   initnopool <size> <block>        pool_init(NULL, arena, size, block)
 *   alloc                            one pool_alloc: "alloc <offset from arena>" / "alloc null"
 *   allocn <n>                       n allocs: "allocn <got> first <off> last <off>"
 *   free <offset> | free null        pool_free(&pool, arena + offset): "free <rc>"
 *   count                            "count <pool_free_count>"
 *   primask                          calls every function masked and unmasked, prints PRIMASK after each
 *   stress <iterations> <reload>     main loop and timer 0 interrupt share the pool
 *   end                              exit(0)
 *
 * Every block handed out is filled with a stamp over its whole block_size
 * bytes and checked when it is given back.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pool.h"

#define UART0_DATA   (*(volatile uint32_t *)0x40004000u)
#define UART0_STATE  (*(volatile uint32_t *)0x40004004u)
#define UART0_CTRL   (*(volatile uint32_t *)0x40004008u)
#define UART0_BAUD   (*(volatile uint32_t *)0x40004010u)

#define TIMER0_CTRL   (*(volatile uint32_t *)0x40000000u)
#define TIMER0_VALUE  (*(volatile uint32_t *)0x40000004u)
#define TIMER0_RELOAD (*(volatile uint32_t *)0x40000008u)
#define TIMER0_INT    (*(volatile uint32_t *)0x4000000Cu)
#define NVIC_ISER0    (*(volatile uint32_t *)0xE000E100u)
#define NVIC_ICER0    (*(volatile uint32_t *)0xE000E180u)
#define NVIC_ICPR0    (*(volatile uint32_t *)0xE000E280u)
#define TIMER0_IRQ    8u

#define ARENA_SIZE 8192u

static uint8_t arena[ARENA_SIZE + 64u] __attribute__((aligned(8)));
static pool_t pool;
static size_t cur_block;     /* block_size of the last successful init */
static uint8_t *cur_buf;
static size_t cur_size;
static int cur_blocks;

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

static void putnum(long v)
{
	char tmp[24];
	int n = 0;
	unsigned long u = v < 0 ? (unsigned long)(-v) : (unsigned long)v;

	if (v < 0) {
		putch('-');
	}
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

static int getline_(char *buf, int cap)
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
	return n;
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

static long num(const char **s)
{
	char w[24];

	*s = word(*s, w, sizeof w);
	return strtol(w, NULL, 0);
}

/* ------------------------------------------------------------ helpers */

static uint32_t primask(void)
{
	uint32_t v;

	__asm__ volatile("mrs %0, primask" : "=r"(v));
	return v & 1u;
}

static void print_ptr(const char *tag, void *p)
{
	puts_(tag);
	if (p == NULL) {
		puts_("null");
	} else if ((uint8_t *)p < arena || (uint8_t *)p >= arena + sizeof arena) {
		puts_("outside");
	} else {
		putnum((long)((uint8_t *)p - arena));
	}
}

static int in_pool_buf(void *p)
{
	uint8_t *b = p;

	return b != NULL && b >= cur_buf && b + cur_block <= cur_buf + cur_size;
}

static void stamp(void *p, uint32_t serial)
{
	if (in_pool_buf(p)) {
		memset(p, (int)(0x40u + (serial % 151u)), cur_block);
	}
}

static int stamp_ok(void *p, uint32_t serial)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < cur_block; i++) {
		if (b[i] != (uint8_t)(0x40u + (serial % 151u))) {
			return 0;
		}
	}
	return 1;
}

/* ------------------------------------------------------------ stress */

#define MAIN_HOLD 24
#define ISR_HOLD 6

static uint8_t held[(ARENA_SIZE + 64u) / 8u];    /* by 8-byte slot of the arena */
static void *main_ptr[MAIN_HOLD];
static uint32_t main_serial[MAIN_HOLD];
static void *isr_ptr[ISR_HOLD];
static uint32_t isr_serial[ISR_HOLD];
static volatile uint32_t isr_calls;
static volatile uint32_t errors;
static uint32_t isr_rng = 12345u;
static volatile int stress_on;

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 16;
}

/* Claims the slot of a block just handed out; caller runs with interrupts masked or in the ISR. */
static int claim(void *p)
{
	size_t slot;

	if (!in_pool_buf(p) || ((uintptr_t)p & 7u) != 0u) {
		return 0;
	}
	slot = (size_t)((uint8_t *)p - arena) / 8u;
	if (held[slot]) {
		return 0;
	}
	held[slot] = 1u;
	return 1;
}

static void unclaim(void *p)
{
	held[(size_t)((uint8_t *)p - arena) / 8u] = 0u;
}

void TIMER0_Handler(void)
{
	int i;

	TIMER0_INT = 1u;
	if (!stress_on) {
		return;
	}
	isr_calls++;
	if (errors != 0u) {
		return;
	}
	i = (int)(lcg(&isr_rng) % ISR_HOLD);
	if (isr_ptr[i] == NULL) {
		void *p = pool_alloc(&pool);
		if (p != NULL) {
			if (!claim(p)) {
				errors++;
				return;
			}
			isr_serial[i] = isr_calls * 7u + 3u;
			stamp(p, isr_serial[i]);
			isr_ptr[i] = p;
		}
	} else {
		void *p = isr_ptr[i];
		if (!stamp_ok(p, isr_serial[i])) {
			errors++;
		}
		unclaim(p);
		isr_ptr[i] = NULL;
		if (pool_free(&pool, p) != POOL_OK) {
			errors++;
		}
	}
}

static void stress(long iters, long reload)
{
	uint32_t rng = 777u, serial = 1u;
	long it;
	int i, got = 0, ok;
	void *all[POOL_MAX_BLOCKS];

	memset(held, 0, sizeof held);
	memset(main_ptr, 0, sizeof main_ptr);
	memset(isr_ptr, 0, sizeof isr_ptr);
	errors = 0u;
	isr_calls = 0u;

	TIMER0_CTRL = 0u;
	TIMER0_INT = 1u;
	TIMER0_RELOAD = (uint32_t)reload;
	TIMER0_VALUE = (uint32_t)reload;
	NVIC_ICPR0 = 1u << TIMER0_IRQ;
	NVIC_ISER0 = 1u << TIMER0_IRQ;
	stress_on = 1;
	TIMER0_CTRL = 1u | 8u;

	for (it = 0; it < iters && errors == 0u; it++) {
		i = (int)(lcg(&rng) % MAIN_HOLD);
		if (main_ptr[i] == NULL) {
			void *p = pool_alloc(&pool);
			if (p != NULL) {
				__asm__ volatile("cpsid i" : : : "memory");
				ok = claim(p);
				__asm__ volatile("cpsie i" : : : "memory");
				if (!ok) {
					errors++;
					continue;
				}
				main_serial[i] = serial++;
				stamp(p, main_serial[i]);
				main_ptr[i] = p;
			}
		} else {
			void *p = main_ptr[i];
			if (!stamp_ok(p, main_serial[i])) {
				errors++;
			}
			__asm__ volatile("cpsid i" : : : "memory");
			unclaim(p);
			__asm__ volatile("cpsie i" : : : "memory");
			main_ptr[i] = NULL;
			if (pool_free(&pool, p) != POOL_OK) {
				errors++;
			}
		}
	}

	TIMER0_CTRL = 0u;
	stress_on = 0;
	NVIC_ICER0 = 1u << TIMER0_IRQ;
	TIMER0_INT = 1u;

	for (i = 0; i < MAIN_HOLD; i++) {
		if (main_ptr[i] != NULL) {
			if (!stamp_ok(main_ptr[i], main_serial[i]) || pool_free(&pool, main_ptr[i]) != POOL_OK) {
				errors++;
			}
			main_ptr[i] = NULL;
		}
	}
	for (i = 0; i < ISR_HOLD; i++) {
		if (isr_ptr[i] != NULL) {
			if (!stamp_ok(isr_ptr[i], isr_serial[i]) || pool_free(&pool, isr_ptr[i]) != POOL_OK) {
				errors++;
			}
			isr_ptr[i] = NULL;
		}
	}

	puts_("stress count ");
	putnum((long)pool_free_count(&pool));
	puts_(" of ");
	putnum(cur_blocks);
	nl();

	/* every block once: drain the pool, then give everything back */
	memset(held, 0, sizeof held);
	while (got < (int)POOL_MAX_BLOCKS) {
		void *p = pool_alloc(&pool);
		if (p == NULL) {
			break;
		}
		if (!claim(p)) {
			errors++;
			break;
		}
		all[got++] = p;
	}
	puts_("stress distinct ");
	putnum(got);
	nl();
	while (got > 0) {
		if (pool_free(&pool, all[--got]) != POOL_OK) {
			errors++;
		}
	}
	puts_("stress errors ");
	putnum((long)errors);
	nl();
	puts_(isr_calls > 0u ? "stress isr active" : "stress isr idle");
	nl();
}

/* A corrupted free list makes the pool dereference garbage: report it instead of hanging. */
void HardFault_Handler(void)
{
	puts_("fault");
	nl();
	exit(3);
}

/* ------------------------------------------------------------ main */

static void do_init(void *buf, pool_t *pp, long size, long block)
{
	int rc = pool_init(pp, buf, (size_t)size, (size_t)block);

	puts_("init ");
	putnum(rc);
	nl();
	if (rc > 0) {
		cur_block = (size_t)block;
		cur_buf = buf;
		cur_size = (size_t)size;
		cur_blocks = rc;
	}
}

int main(void)
{
	char line[96], cmd[24];

	UART0_BAUD = 217u;
	UART0_CTRL = 3u;
	/* QEMU hands console input over from its main loop, which a busy
	 * polling loop alone may leave asleep: the periodic dual-timer 2
	 * (100 us, interrupt off) keeps virtual-timer events coming, so the
	 * input never stalls on a loaded host. */
	*(volatile unsigned int *)0x40002020u = 2500u;	/* Timer2Load */
	*(volatile unsigned int *)0x40002028u = 0xC2u;	/* enable, periodic, 32-bit */

	for (;;) {
		const char *s;

		getline_(line, sizeof line);
		s = word(line, cmd, sizeof cmd);
		if (cmd[0] == 0) {
			continue;
		}
		if (strcmp(cmd, "init") == 0) {
			long mis = num(&s), size = num(&s), block = num(&s);
			if (mis < 0 || mis > 63 || size < 0 || (unsigned long)size > ARENA_SIZE) {
				puts_("bad script");
				nl();
				continue;
			}
			do_init(arena + mis, &pool, size, block);
		} else if (strcmp(cmd, "initnull") == 0) {
			long size = num(&s), block = num(&s);
			do_init(NULL, &pool, size, block);
		} else if (strcmp(cmd, "initnopool") == 0) {
			long size = num(&s), block = num(&s);
			do_init(arena, NULL, size, block);
		} else if (strcmp(cmd, "alloc") == 0) {
			void *p = pool_alloc(&pool);
			stamp(p, 9u);
			print_ptr("alloc ", p);
			nl();
		} else if (strcmp(cmd, "allocn") == 0) {
			long n = num(&s), i, got = 0;
			void *first = NULL, *last = NULL;
			for (i = 0; i < n; i++) {
				void *p = pool_alloc(&pool);
				if (p == NULL) {
					continue;
				}
				stamp(p, 9u);
				if (got == 0) {
					first = p;
				}
				last = p;
				got++;
			}
			puts_("allocn ");
			putnum(got);
			print_ptr(" first ", first);
			print_ptr(" last ", last);
			nl();
		} else if (strcmp(cmd, "free") == 0) {
			char w[24];
			void *p;
			word(s, w, sizeof w);
			p = strcmp(w, "null") == 0 ? NULL : (void *)(arena + strtol(w, NULL, 0));
			puts_("free ");
			putnum(pool_free(&pool, p));
			nl();
		} else if (strcmp(cmd, "count") == 0) {
			puts_("count ");
			putnum((long)pool_free_count(&pool));
			nl();
		} else if (strcmp(cmd, "primask") == 0) {
			uint32_t m[3], u[3];
			void *p;
			__asm__ volatile("cpsid i" : : : "memory");
			p = pool_alloc(&pool);
			m[0] = primask();
			(void)pool_free(&pool, p);
			m[1] = primask();
			(void)pool_free_count(&pool);
			m[2] = primask();
			__asm__ volatile("cpsie i" : : : "memory");
			p = pool_alloc(&pool);
			u[0] = primask();
			(void)pool_free(&pool, p);
			u[1] = primask();
			(void)pool_free_count(&pool);
			u[2] = primask();
			__asm__ volatile("cpsie i" : : : "memory");
			puts_("primask masked ");
			putch((char)('0' + m[0]));
			putch((char)('0' + m[1]));
			putch((char)('0' + m[2]));
			puts_(" unmasked ");
			putch((char)('0' + u[0]));
			putch((char)('0' + u[1]));
			putch((char)('0' + u[2]));
			nl();
		} else if (strcmp(cmd, "stress") == 0) {
			long iters = num(&s), reload = num(&s);
			if (cur_blocks <= 0 || cur_block < 8u) {
				puts_("bad script");
				nl();
				continue;
			}
			stress(iters, reload);
		} else if (strcmp(cmd, "end") == 0) {
			puts_("end");
			nl();
			exit(0);
		} else {
			puts_("? ");
			puts_(line);
			nl();
		}
	}
}
