/*
 * Hidden test application for storage-004 (not shown to the model).
 *
 * Simulates the two-sector NOR flash of kvlog.h in RAM (program = AND,
 * erase = 0xFF, power failure after a budget of programmed bytes or just
 * before an erase) and keeps a model of what every key may read back.
 * Commands read from UART0, one a line:
 *
 *   mount                     kv_mount(): "mount <rc>"
 *   set <key> <len> <seed>    kv_set of a value made from seed: "set <rc>" or "set cut"
 *   get <key> [cap]           kv_get: "get <key> <rc> <value ok|value wrong>"
 *   setraw <key> <len> <ptr>  kv_set with val NULL (ptr 0) or a buffer: "set <rc>"
 *   cut <n>                   power fails after n more programmed bytes
 *   reboot                    power back, kv_mount, check every key: "mount <rc>", "verify ok" / "verify bad <key> ..."
 *   fill <n> <keys> <seed> <len>  n kv_set calls over keys 1..keys (len 0: varied): "fill ok <n>" or the first failure
 *   sweep <keys> <warm> <ops> <step> <seed>
 *                             from a store warmed with <warm> sets, cuts power at every <step>-th
 *                             byte of a workload of <ops> sets and around every erase it makes,
 *                             reboots and verifies each time:
 *                             "sweep points>0 yes erases yes failures 0"-style lines
 *   erased                    "erased <bytes of the flash that read 0xFF>" (diagnostic only)
 *   end                       exit(0)
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kvlog.h"

#define UART0_DATA   (*(volatile uint32_t *)0x40004000u)
#define UART0_STATE  (*(volatile uint32_t *)0x40004004u)
#define UART0_CTRL   (*(volatile uint32_t *)0x40004008u)
#define UART0_BAUD   (*(volatile uint32_t *)0x40004010u)

#define FLASH_SIZE (FLASH_SECTOR_SIZE * FLASH_SECTOR_COUNT)

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

/* ------------------------------------------------------------ flash */

static uint8_t flash[FLASH_SIZE];
static int power_lost;
static long budget = -1;          /* programmed bytes left before the failure, -1: none planned */
static unsigned long programmed;  /* bytes programmed since boot of the harness */
static unsigned long erases;

int flash_read(uint32_t addr, void *buf, size_t len)
{
	if (power_lost) {
		return FLASH_EPOWER;
	}
	if (addr > FLASH_SIZE || len > FLASH_SIZE - addr || (buf == NULL && len != 0u)) {
		return FLASH_ERANGE;
	}
	memcpy(buf, &flash[addr], len);
	return FLASH_OK;
}

int flash_program(uint32_t addr, const void *data, size_t len)
{
	const uint8_t *d = data;
	size_t i;

	if (power_lost) {
		return FLASH_EPOWER;
	}
	if (addr > FLASH_SIZE || len > FLASH_SIZE - addr || (data == NULL && len != 0u)) {
		return FLASH_ERANGE;
	}
	for (i = 0; i < len; i++) {
		if (budget == 0) {
			power_lost = 1;
			return FLASH_EPOWER;
		}
		if (budget > 0) {
			budget--;
		}
		flash[addr + i] &= d[i];
		programmed++;
	}
	return FLASH_OK;
}

#define MAX_ERASE_POINTS 64
static int record_erases;
static unsigned long erase_points[MAX_ERASE_POINTS];   /* bytes programmed in the workload before each erase */
static unsigned n_erase_points;
static unsigned long workload_start;

int flash_erase(uint32_t sector)
{
	if (record_erases && n_erase_points < MAX_ERASE_POINTS) {
		erase_points[n_erase_points++] = programmed - workload_start;
	}
	if (power_lost) {
		return FLASH_EPOWER;
	}
	if (sector >= FLASH_SECTOR_COUNT) {
		return FLASH_ERANGE;
	}
	if (budget == 0) {
		power_lost = 1;
		return FLASH_EPOWER;
	}
	memset(&flash[sector * FLASH_SECTOR_SIZE], 0xFF, FLASH_SECTOR_SIZE);
	erases++;
	return FLASH_OK;
}

/* ------------------------------------------------------------ model */

#define NKEYS 255

struct want {
	uint8_t n;                 /* acceptable values: 0, 1 or 2 (old and new) */
	int16_t len[2];            /* -1: KV_ENOENT */
	uint8_t val[2][KV_VALUE_MAX];
};

static struct want model[NKEYS + 1];

static void make_value(uint8_t *v, unsigned len, unsigned key, unsigned seed)
{
	unsigned i;
	uint32_t x = seed * 2654435761u + key * 40503u + len;

	for (i = 0; i < len; i++) {
		x = x * 1103515245u + 12345u;
		v[i] = (uint8_t)(x >> 16);
		if ((seed + i) % 11u == 3u) {
			v[i] = 0xFFu;      /* erased-looking bytes inside values */
		} else if ((seed + i) % 13u == 5u) {
			v[i] = 0x00u;
		}
	}
}

static void model_reset(void)
{
	unsigned k;

	for (k = 0; k <= NKEYS; k++) {
		model[k].n = 1;
		model[k].len[0] = -1;
	}
}

static void model_set(unsigned key, const uint8_t *v, unsigned len, int interrupted)
{
	struct want *w = &model[key];

	if (interrupted) {
		/* old (the only acknowledged value) or new */
		w->n = 2;
		w->len[1] = (int16_t)len;
		memcpy(w->val[1], v, len);
		return;
	}
	w->n = 1;
	w->len[0] = (int16_t)len;
	memcpy(w->val[0], v, len);
}

/* Checks key against the model; narrows an old-or-new entry to what was read. 1: acceptable. */
static int model_check(unsigned key)
{
	struct want *w = &model[key];
	uint8_t buf[KV_VALUE_MAX + 8];
	int rc, j;

	memset(buf, 0xA5, sizeof buf);
	rc = kv_get((uint8_t)key, buf, KV_VALUE_MAX);
	for (j = 0; j < w->n; j++) {
		if (w->len[j] < 0 ? rc == KV_ENOENT : (rc == w->len[j] && memcmp(buf, w->val[j], (size_t)rc) == 0)) {
			if (j != 0) {
				w->len[0] = w->len[j];
				memcpy(w->val[0], w->val[j], KV_VALUE_MAX);
			}
			w->n = 1;
			return 1;
		}
	}
	return 0;
}

/* The keys the scripts use (1..16) and a few that are never set. */
static const uint8_t verify_keys[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 100, 200, 254};

static int verify_all(int print)
{
	unsigned i, k;
	int bad = 0;

	for (i = 0; i < sizeof verify_keys; i++) {
		k = verify_keys[i];
		if (!model_check(k)) {
			bad++;
			if (print && bad <= 3) {
				puts_("verify bad ");
				putnum((long)k);
				nl();
			}
		}
	}
	return bad;
}

static void reboot(void)
{
	power_lost = 0;
	budget = -1;
}

static int do_set(unsigned key, unsigned len, unsigned seed, int *cut)
{
	uint8_t v[KV_VALUE_MAX];
	int rc;

	make_value(v, len, key, seed);
	rc = kv_set((uint8_t)key, v, len);
	*cut = power_lost;
	if (power_lost) {
		model_set(key, v, len, 1);
	} else if (rc == KV_OK) {
		model_set(key, v, len, 0);
	}
	return rc;
}

/* ------------------------------------------------------------ sweep */

static uint8_t snap_flash[FLASH_SIZE];
static struct want snap_model[NKEYS + 1];

static unsigned work_len(unsigned i, unsigned seed)
{
	return (i * 7u + seed) % (KV_VALUE_MAX + 1u);
}

/* Runs the workload from the snapshot with a failure after `cut` bytes (-1: none). Returns failures found. */
static int sweep_point(long cut, unsigned keys, unsigned ops, unsigned seed, unsigned long *used, unsigned long *erased)
{
	unsigned i;
	int c, fails = 0, rc;
	unsigned long p0 = programmed, e0 = erases;

	memcpy(flash, snap_flash, sizeof flash);
	memcpy(model, snap_model, sizeof model);
	reboot();
	if (kv_mount() != KV_OK) {
		return 1;
	}
	budget = cut;
	workload_start = programmed;
	record_erases = cut < 0;
	for (i = 0; i < ops && !power_lost; i++) {
		unsigned key = 1u + (i * 5u + seed) % keys;
		rc = do_set(key, work_len(i, seed), seed * 1000u + i, &c);
		if (!c && rc != KV_OK) {
			fails++;
		}
	}
	record_erases = 0;
	if (used != NULL) {
		*used = programmed - p0;
		*erased = erases - e0;
	}
	/* reboot, check, write a little more, reboot again, check again */
	reboot();
	if (kv_mount() != KV_OK) {
		return fails + 1;
	}
	fails += verify_all(0);
	for (i = 0; i < 3u; i++) {
		unsigned key = 1u + (i * 3u + seed) % keys;
		if (do_set(key, 9u + i, seed * 7u + i, &c) != KV_OK) {
			fails++;
		}
	}
	reboot();
	if (kv_mount() != KV_OK) {
		return fails + 1;
	}
	fails += verify_all(0);
	return fails;
}

static void sweep(unsigned keys, unsigned warm, unsigned ops, unsigned step, unsigned seed)
{
	unsigned long total = 0, erased = 0;
	unsigned i;
	long n;
	int c, failures = 0, points = 0, first_bad = -1;

	/* warm the store up from an erased flash */
	memset(flash, 0xFF, sizeof flash);
	model_reset();
	reboot();
	if (kv_mount() != KV_OK) {
		puts_("sweep mount failed");
		nl();
		return;
	}
	for (i = 0; i < warm; i++) {
		unsigned key = 1u + (i * 3u + seed) % keys;
		if (do_set(key, (i * 11u + seed) % (KV_VALUE_MAX + 1u), seed + i, &c) != KV_OK) {
			puts_("sweep warm-up failed");
			nl();
			return;
		}
	}
	memcpy(snap_flash, flash, sizeof flash);
	memcpy(snap_model, model, sizeof model);

	/* the uncut run measures the workload and where it erases */
	n_erase_points = 0;
	failures += sweep_point(-1, keys, ops, seed, &total, &erased);
	for (n = 0; n <= (long)total; n++) {
		int f, hit = n % (long)step == 0;
		unsigned j;
		/* every step-th byte, and the failure points around every erase */
		for (j = 0; !hit && j < n_erase_points; j++) {
			hit = n + 1 >= (long)erase_points[j] && n <= (long)erase_points[j] + 1;
		}
		if (!hit) {
			continue;
		}
		f = sweep_point(n, keys, ops, seed, NULL, NULL);
		points++;
		if (f != 0 && first_bad < 0) {
			first_bad = (int)n;
		}
		failures += f;
	}
	puts_("sweep compacted ");
	puts_(erased > 0u ? "yes" : "no");
	nl();
	puts_("sweep points ");
	puts_(points >= 20 ? "many" : "few");
	nl();
	puts_("sweep failures ");
	putnum(failures);
	if (first_bad >= 0) {
		puts_(" first at byte ");
		putnum(first_bad);
	}
	nl();
}

/* ------------------------------------------------------------ main */

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
	memset(flash, 0xFF, sizeof flash);
	model_reset();

	for (;;) {
		const char *s;

		getline_(line, sizeof line);
		s = word(line, cmd, sizeof cmd);
		if (cmd[0] == 0) {
			continue;
		}
		if (strcmp(cmd, "mount") == 0) {
			puts_("mount ");
			putnum(kv_mount());
			nl();
		} else if (strcmp(cmd, "set") == 0) {
			long key = num(&s), len = num(&s), seed = num(&s);
			int c, rc;
			if (key < 0 || key > 255 || len < 0 || len > 40) {
				puts_("bad script");
				nl();
				continue;
			}
			if (key == 0 || key == 255 || len > (long)KV_VALUE_MAX) {
				uint8_t v[40];
				memset(v, 0x11, sizeof v);
				rc = kv_set((uint8_t)key, v, (size_t)len);
				c = 0;
			} else {
				rc = do_set((unsigned)key, (unsigned)len, (unsigned)seed, &c);
			}
			puts_("set ");
			if (c) {
				puts_("cut");
			} else {
				putnum(rc);
			}
			nl();
		} else if (strcmp(cmd, "setnull") == 0) {
			long key = num(&s), len = num(&s);
			int rc = kv_set((uint8_t)key, NULL, (size_t)len);
			if (rc == KV_OK && len == 0 && key >= 1 && key <= 254) {
				model_set((unsigned)key, NULL, 0u, 0);
			}
			puts_("set ");
			putnum(rc);
			nl();
		} else if (strcmp(cmd, "get") == 0) {
			long key = num(&s), cap = num(&s);
			uint8_t buf[KV_VALUE_MAX + 8], before[KV_VALUE_MAX + 8];
			int rc;
			if (cap <= 0 || cap > (long)KV_VALUE_MAX) {
				cap = KV_VALUE_MAX;
			}
			memset(buf, 0xA5, sizeof buf);
			memcpy(before, buf, sizeof buf);
			rc = kv_get((uint8_t)key, buf, (size_t)cap);
			puts_("get ");
			putnum(key);
			putch(' ');
			putnum(rc);
			if (rc >= 0 && key >= 1 && key <= 254) {
				struct want *w = &model[key];
				int ok = w->n == 1 && w->len[0] == rc && memcmp(buf, w->val[0], (size_t)rc) == 0;
				puts_(ok ? " value ok" : " value wrong");
			} else if (memcmp(buf, before, sizeof buf) != 0) {
				puts_(" buffer written");
			}
			nl();
		} else if (strcmp(cmd, "cut") == 0) {
			budget = num(&s);
		} else if (strcmp(cmd, "reboot") == 0) {
			int bad;
			reboot();
			puts_("mount ");
			putnum(kv_mount());
			nl();
			bad = verify_all(1);
			if (bad == 0) {
				puts_("verify ok");
				nl();
			}
		} else if (strcmp(cmd, "fill") == 0) {
			long n = num(&s), keys = num(&s), seed = num(&s), fixed = num(&s), i;
			int c, rc = KV_OK;
			if (keys < 1 || keys > 16 || fixed < 0 || fixed > (long)KV_VALUE_MAX) {
				puts_("bad script");
				nl();
				continue;
			}
			for (i = 0; i < n; i++) {
				unsigned key = 1u + (unsigned)(i % keys);
				unsigned len = fixed > 0 ? (unsigned)fixed : (unsigned)((i * 13 + seed) % (KV_VALUE_MAX + 1));
				rc = do_set(key, len, (unsigned)(seed + i), &c);
				if (rc != KV_OK || c) {
					break;
				}
			}
			puts_("fill ");
			if (i == n) {
				puts_("ok ");
				putnum(n);
			} else {
				puts_("failed at ");
				putnum(i);
				puts_(" rc ");
				putnum(rc);
			}
			nl();
			puts_(erases > 0u ? "fill compacted" : "fill not compacted");
			nl();
		} else if (strcmp(cmd, "sweep") == 0) {
			long keys = num(&s), warm = num(&s), ops = num(&s), step = num(&s), seed = num(&s);
			if (keys < 1 || keys > 16 || step < 1) {
				puts_("bad script");
				nl();
				continue;
			}
			sweep((unsigned)keys, (unsigned)warm, (unsigned)ops, (unsigned)step, (unsigned)seed);
		} else if (strcmp(cmd, "erased") == 0) {
			unsigned i, n = 0;
			for (i = 0; i < FLASH_SIZE; i++) {
				n += flash[i] == 0xFFu;
			}
			puts_("erased ");
			putnum((long)n);
			nl();
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
